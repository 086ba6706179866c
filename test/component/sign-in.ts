// The session a component test starts from: signed in with a role (token and current user set), or signed out.
import type { PublicUser } from "../../src/schemas/auth.ts";
import { currentUser, token } from "../../web/shared/state/session.ts";

export function signIn(role: PublicUser["role"] | null): void {
  token.value = role ? "tok" : null;
  currentUser.value = role ? { id: 1, email: "a@example.com", firstName: "A", lastName: "B", role, createdAt: "2026-01-01T00:00:00.000Z" } : null;
}
