import { useSignals } from "@preact/signals-react/runtime";
import type { ReactNode } from "react";
import { Redirect } from "wouter";
import { paths } from "../paths.ts";
import { currentUser, isAdmin, isAuthenticated, userLoading } from "../state/session.ts";
import { Spinner } from "./Spinner.tsx";

/** Login required: without a token, go to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  useSignals();
  if (!isAuthenticated.value) return <Redirect to={paths.login} replace />;
  return <>{children}</>;
}

/** Admin only: logged out goes to /login, a non-admin goes home (once the user is known). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  useSignals();
  if (!isAuthenticated.value) return <Redirect to={paths.login} replace />;
  if (!currentUser.value) return userLoading.value ? <Spinner /> : <Redirect to={paths.home} replace />;
  if (!isAdmin.value) return <Redirect to={paths.home} replace />;
  return <>{children}</>;
}
