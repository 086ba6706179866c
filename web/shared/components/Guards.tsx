import { useSignals } from "@preact/signals-react/runtime";
import type { ReactNode } from "react";
import { Redirect, useLocation, useSearch } from "wouter";
import { loginReturningTo, paths, type RouteName } from "../paths.ts";
import { currentUser, isAdmin, isAuthenticated, userLoading } from "../state/session.ts";
import { site } from "../state/site.ts";
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

/** The screens customers use (and what they link to) stay open while the server waits for its first admin. */
const OPEN_BEFORE_SETUP: ReadonlySet<RouteName> = new Set<RouteName>(["subscribe", "businesses", "print", "faq", "terms", "privacy", "setup"]);

/**
 * First run: while no admin exists (GET /api/site's setupNeeded), every other screen goes to /setup; once one does,
 * /setup goes home. Until the server has answered, every screen shows as usual.
 */
export function FirstRunGate({ route, children }: { route: RouteName; children: ReactNode }) {
  useSignals();
  const needed = site.value?.setupNeeded;
  if (needed === true && !OPEN_BEFORE_SETUP.has(route)) return <Redirect to={paths.setup} replace />;
  if (needed === false && route === "setup") return <Redirect to={paths.home} replace />;
  return <>{children}</>;
}
