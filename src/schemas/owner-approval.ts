// Owner sign-up and approval (issue 21, item 2): the words the API, the CLI and the screens share. Nothing is texted
// for an owner the admin has not approved (unless sign-up is "open"); a refused account cannot sign in.

export const OWNER_SIGNUP_MODES = ["approval", "open", "closed"] as const;
export type OwnerSignup = (typeof OWNER_SIGNUP_MODES)[number];

export type UserStatus = "approved" | "pending" | "refused";

/** What a pending owner reads on the home, broadcast and customers screens. */
export const PENDING_NOTICE_TITLE = "Your account is waiting for approval";
export const PENDING_NOTICE =
  "The administrator of this server has not approved your account yet, so nothing is texted for you until then: no broadcasts, tests, or confirmations to the customers you add. You can set up your businesses, posters and customer lists meanwhile; confirmations wait and go once you are approved.";

/** The 403 of every sending path for a pending (or refused) owner. */
export const OWNER_NOT_APPROVED =
  "Your account is waiting for the administrator's approval; nothing is texted for you until then.";
/** The same 403 when someone else (the admin, the operator) tries to send for such an owner's business. */
export const BUSINESS_OWNER_NOT_APPROVED =
  "This business's owner has not been approved yet; approve the account (Users) before anything is texted for it.";

/** Login with the right password on a refused account (a wrong password still gets the usual 401). */
export const ACCOUNT_REFUSED = "The administrator of this server refused this account, so it cannot sign in.";

/** Register while ownerSignup is "closed" (the Register page says the same). */
export const SIGNUP_CLOSED =
  "Registration is closed on this server: the administrator creates owner accounts. Ask the person who runs it for one.";

export const USER_NOT_FOUND = "No such account.";
export const CANNOT_CHANGE_SELF = "You cannot refuse or delete your own account.";
export const LAST_ADMIN = "This is the last administrator; make another admin first.";
export const ADMINS_ARE_APPROVED = "Administrators are always approved.";
