import { useSignals } from "@preact/signals-react/runtime";
import type { ReactNode } from "react";
import { Redirect, useLocation, useSearch } from "wouter";
import { loginReturningTo, paths } from "../paths.ts";
import { currentUser, isAdmin, isAuthenticated, userLoading } from "../state/session.ts";
import { Spinner } from "./Spinner.tsx";

/** /login, carrying the page asked for so that login can return to it. */
function ToLogin() {
  const [path] = useLocation();
  const search = useSearch();
  return <Redirect to={loginReturningTo(search ? `${path}?${search}` : path)} replace />;
}

/** Login required: without a token, go to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  useSignals();
  if (!isAuthenticated.value) return <ToLogin />;
  return <>{children}</>;
}

/** Admin only: logged out goes to /login, a non-admin goes home (once the user is known). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  useSignals();
  if (!isAuthenticated.value) return <ToLogin />;
  if (!currentUser.value) return userLoading.value ? <Spinner /> : <Redirect to={paths.home} replace />;
  if (!isAdmin.value) return <Redirect to={paths.home} replace />;
  return <>{children}</>;
}
