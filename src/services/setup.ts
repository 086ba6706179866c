import type { Repos } from "../repos/index.ts";

// First run (issue 9): a new server asks, in the browser, for its first admin account. One rule says when, read by
// GET /api/site (the UI's setupNeeded) and by POST /api/setup (which refuses when it is false).

/** POST /api/setup once an admin exists. */
export const SETUP_ALREADY_DONE = "Setup is already done: log in, or ask your admin.";
/** POST /api/setup when NEARCAST_ADMIN_EMAIL names the first admin: that address registers instead. */
export const SETUP_BY_ADMIN_EMAIL =
  "This server's admin is the account registered with its configured admin email (NEARCAST_ADMIN_EMAIL): register with that address.";

/**
 * Why first-run setup is refused now, or null while it is due: it is due while no admin exists (the CLI's `users
 * create --admin` ends it too) and the server's operator has not named the admin with NEARCAST_ADMIN_EMAIL (then
 * registering with that address makes the admin, as before).
 */
export function setupRefusal(repos: Pick<Repos, "users">, adminEmail: string | null): string | null {
  if (repos.users.countAdmins() > 0) return SETUP_ALREADY_DONE;
  if (adminEmail) return SETUP_BY_ADMIN_EMAIL;
  return null;
}

/** Whether the UI should open on the setup screen (GET /api/site's setupNeeded). */
export function setupDue(repos: Pick<Repos, "users">, adminEmail: string | null): boolean {
  return setupRefusal(repos, adminEmail) === null;
}
