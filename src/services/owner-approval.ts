// Owner approval (issue 21, item 2): with ownerSignup "approval" (the default) a registered owner is pending, and
// nothing is texted for them (broadcasts, tests, phone codes; their confirmations wait) until an admin approves the
// account; a refused account cannot sign in and its sessions end, its data stays until an admin deletes it. The admin
// hears of each new sign-up by email when email is set up. The admin works here from the home page, the Users screen
// (/api/user/...) and `nearcast users approve|refuse`.
import { AppError, ConflictError, ForbiddenError, NotFoundError } from "../errors.ts";
import { createBackground } from "../lib/background.ts";
import { newOwnerEmail } from "../mail/templates.ts";
import type { Repos } from "../repos/index.ts";
import type { UserRow } from "../repos/users.ts";
import type { PublicUser } from "../schemas/auth.ts";
import { forgotPasswordSchema } from "../schemas/auth.ts";
import {
  ACCOUNT_REFUSED,
  BUSINESS_OWNER_NOT_APPROVED,
  CANNOT_CHANGE_SELF,
  LAST_ADMIN,
  OWNER_NOT_APPROVED,
  type OwnerSignup,
  SIGNUP_CLOSED,
  USER_NOT_FOUND,
  type UserStatus,
} from "../schemas/owner-approval.ts";
import { toPublicUser } from "./auth.ts";
import type { MailingDeps } from "./mailing-deps.ts";
import { isOperator, managesAll, type Principal } from "./principal.ts";
import { validate } from "./validate.ts";

/** Every sending path for an owner who is not approved: 403 owner_not_approved, nothing written. */
export class OwnerNotApprovedError extends AppError {
  constructor(message = OWNER_NOT_APPROVED) {
    super(403, "owner_not_approved", message);
  }
}

/** Register while sign-up is closed. */
export class SignupClosedError extends AppError {
  constructor() {
    super(403, "registration_closed", SIGNUP_CLOSED);
  }
}

/** The right password on a refused account (a wrong one gets the usual 401, so this tells nobody which exist). */
export class AccountRefusedError extends AppError {
  constructor() {
    super(403, "account_refused", ACCOUNT_REFUSED);
  }
}

/**
 * Throws unless the owner of what is about to be texted is approved. Whoever acts (the owner, an admin, the operator)
 * is held to the business owner's state: nothing is texted for an account the admin has not approved.
 */
export function requireApprovedOwner(repos: Repos, ownerId: number, actor: Principal): void {
  const owner = repos.users.findById(ownerId);
  if (owner?.status === "approved") return;
  const own = !isOperator(actor) && actor.id === ownerId;
  throw new OwnerNotApprovedError(own ? OWNER_NOT_APPROVED : BUSINESS_OWNER_NOT_APPROVED);
}

export interface OwnerApprovalDeps extends MailingDeps {
  /** Deletes an account's image files once its rows are gone. */
  removeUploadFiles: (fileNames: string[]) => void;
  /** Sends the confirmations held while the owner was pending, within the text budget (helper E's textBudget). */
  releaseHeld?: (ownerId: number) => void;
}

export function createOwnerApprovalService({ repos, clock, logger, settings, mailer, removeUploadFiles, releaseHeld }: OwnerApprovalDeps) {
  const background = createBackground(logger);

  function requireAdmin(actor: Principal): void {
    if (!managesAll(actor)) throw new ForbiddenError("Only an administrator can do this.");
  }

  function accountOf(id: number): UserRow {
    const user = repos.users.findById(id);
    if (!user) throw new NotFoundError(USER_NOT_FOUND);
    return user;
  }

  /** An admin may not refuse or delete their own account, nor the last admin (the operator neither). */
  function guardRemoval(actor: Principal, user: UserRow): void {
    if (!isOperator(actor) && actor.id === user.id) throw new ConflictError(CANNOT_CHANGE_SELF);
    if (user.role === "admin" && repos.users.countOtherAdmins(user.id) === 0) throw new ConflictError(LAST_ADMIN);
  }

  function emailAdmins(owner: UserRow): void {
    if (!mailer.configured()) return;
    const waits = owner.status === "pending";
    background.run("the new-owner email", async () => {
      const { brandName } = settings.current();
      const base = settings.savedPublicUrl();
      for (const admin of repos.users.list().filter((u) => u.role === "admin" && u.status === "approved")) {
        try {
          await mailer.send(newOwnerEmail(admin.email, brandName, owner, waits, base ? `${base}/users` : null));
          logger.info(`new-owner email for user ${owner.id} sent to admin ${admin.id}`);
        } catch (err) {
          logger.warn(`new-owner email for user ${owner.id} could not be sent: ${err instanceof AppError ? err.message : "unexpected error"}`);
        }
      }
    });
  }

  function approve(actor: Principal, id: number): PublicUser {
    requireAdmin(actor);
    const user = accountOf(id);
    if (user.status !== "approved") {
      repos.users.setStatus(id, "approved");
      logger.info(`user ${id} approved`);
    }
    // Confirmations held while the owner waited now go, within the hourly budget.
    releaseHeld?.(id);
    return toPublicUser(accountOf(id));
  }

  function refuse(actor: Principal, id: number): PublicUser {
    requireAdmin(actor);
    const user = accountOf(id);
    guardRemoval(actor, user);
    const now = clock.now();
    repos.transaction(() => {
      repos.users.setStatus(id, "refused");
      repos.sessions.revokeAllForUser(id, now);
      // Its scheduled broadcasts would otherwise start on their own: a refused account texts nobody.
      repos.users.cancelScheduledBroadcastsOf(id, now.getTime());
    });
    logger.info(`user ${id} refused`);
    return toPublicUser(accountOf(id));
  }

  function remove(actor: Principal, id: number): { message: string } {
    requireAdmin(actor);
    const user = accountOf(id);
    guardRemoval(actor, user);
    const files = repos.uploads.listByOwner(id).map((u) => u.fileName);
    repos.transaction(() => repos.users.delete(id));
    removeUploadFiles(files);
    logger.info(`user ${id} deleted`);
    return { message: `The account ${user.email} and everything it owned were deleted.` };
  }

  /** The account with this email, for the CLI: a NotFoundError (exit 2) naming it otherwise. */
  function idByEmail(rawEmail: unknown): number {
    const { email } = validate(forgotPasswordSchema, { email: rawEmail });
    const user = repos.users.findByEmail(email);
    if (!user) throw new NotFoundError(`no account with email ${email}`);
    return user.id;
  }

  return {
    /** The ownerSignup setting in use (env NEARCAST_OWNER_SIGNUP wins). */
    mode(): OwnerSignup {
      return settings.current().ownerSignup;
    },
    /** Register's first check: closed means the admin creates owners. */
    refuseIfClosed(): void {
      if (settings.current().ownerSignup === "closed") throw new SignupClosedError();
    },
    /** The state of an account public registration creates (admins are always approved). */
    statusOfRegistered(role: UserRow["role"]): UserStatus {
      return role === "owner" && settings.current().ownerSignup === "approval" ? "pending" : "approved";
    },
    /** After a registration made a new account: the admins hear of it (in the background). Never for a taken email,
     * which made no account. */
    registered(user: UserRow): void {
      if (user.role === "owner") emailAdmins(user);
    },
    /** Login with the right password: a refused account is told so (403) and gets no session. */
    refuseSignIn(user: UserRow): void {
      if (user.status === "refused") throw new AccountRefusedError();
    },
    /** Awaits the emails still being sent in the background (tests, a clean shutdown). */
    idle: () => background.idle(),

    /** GET /api/user/GetAllUsers, `nearcast users list`: every account with its role and state, oldest first. */
    list(actor: Principal): PublicUser[] {
      requireAdmin(actor);
      return repos.users.list().map(toPublicUser);
    },
    /** GET /api/user/GetPendingUsers: the owners waiting for approval (the admin's home page). */
    pending(actor: Principal): PublicUser[] {
      requireAdmin(actor);
      return repos.users.listByStatus("pending").map(toPublicUser);
    },
    approve,
    refuse,
    remove,
    approveByEmail: (actor: Principal, email: unknown) => approve(actor, idByEmail(email)),
    refuseByEmail: (actor: Principal, email: unknown) => refuse(actor, idByEmail(email)),
  };
}

export type OwnerApprovalService = ReturnType<typeof createOwnerApprovalService>;
