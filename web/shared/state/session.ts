import { computed, signal } from "@preact/signals-react";
import type { PublicUser } from "../../../src/schemas/auth.ts";
import { ApiError, TOKEN_KEY, getToken } from "../api/client.ts";
import { sessionApi } from "../api/session.ts";

// Spec section 4: authenticated means a token is present; the user is fetched when a token exists at start.
export const token = signal<string | null>(getToken());
export const currentUser = signal<PublicUser | null>(null);
export const userLoading = signal<boolean>(false);

export const isAuthenticated = computed(() => token.value !== null);
// The server decides roles; the UI only mirrors user.role.
export const isAdmin = computed(() => currentUser.value?.role === "admin");

function storeToken(value: string | null): void {
  try {
    if (value) localStorage.setItem(TOKEN_KEY, value);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage blocked (private mode): the session lasts for this page only
  }
  token.value = value;
}

export async function loadCurrentUser(): Promise<void> {
  if (!token.value) return;
  userLoading.value = true;
  try {
    currentUser.value = await sessionApi.currentUser();
  } catch (e) {
    // An expired or revoked token: forget it. A network failure keeps it for the next try.
    if (e instanceof ApiError && e.status === 401) clearSession();
  } finally {
    userLoading.value = false;
  }
}

export async function login(email: string, password: string): Promise<PublicUser> {
  const res = await sessionApi.login(email, password);
  storeToken(res.token);
  currentUser.value = res.user;
  return res.user;
}

/** Keeps a session the server has just opened (first-run setup answers like login). */
export function startSession(value: string, user: PublicUser): void {
  storeToken(value);
  currentUser.value = user;
}

export function clearSession(): void {
  storeToken(null);
  currentUser.value = null;
}

/** Revokes the token on the server (best effort) and forgets it here. */
export async function logout(): Promise<void> {
  if (token.value) await sessionApi.logout().catch(() => undefined);
  clearSession();
}
