import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import * as v from "valibot";
import { AppError, ConflictError, ForbiddenError, NotFoundError, TooManyRequestsError, UnauthorizedError, ValidationError } from "../errors.ts";
import type { Logger } from "../lib/logger.ts";
import { EmailNotConfiguredError, type Mailer } from "../mail/mailer.ts";
import { registrationAttemptEmail, resetPasswordEmail } from "../mail/templates.ts";
import { createBackground } from "../lib/background.ts";
import { ipKey, RateLimiter } from "../lib/rate-limiter.ts";
import { hashToken, randomToken } from "../lib/tokens.ts";
import type { Repos } from "../repos/index.ts";
import type { UserRow } from "../repos/users.ts";
import {
  forgotPasswordSchema,
  loginSchema,
  type PublicUser,
  registerSchema,
  RESET_TOKEN_INVALID,
  resetPasswordSchema,
  type Role,
} from "../schemas/auth.ts";
import { INVALID_LOGIN } from "../schemas/texts.ts";
import { type Principal, managesAll } from "./principal.ts";
import type { SettingsService } from "./settings.ts";
import { createLoginThrottle, pairKey } from "./login-throttle.ts";
import { ATTEMPT_EMAIL_NEEDS_PUBLIC_URL, EMAIL_LINKS_NEED_PUBLIC_URL, requirePublicUrl, RESET_LINK_NEEDS_PUBLIC_URL, warnOnce } from "./public-links.ts";
import { setupRefusal } from "./setup.ts";
import type { OwnerApprovalService } from "./owner-approval.ts";
import { validate } from "./validate.ts";

export const SESSION_TTL_MS = 30 * 24 * 3600_000;
export const RESET_TTL_MS = 30 * 60_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const WINDOW_MS = 15 * MINUTE;

/** Forgot-password requests per (email, address) and per address in WINDOW_MS. */
export const RESET_REQUESTS_PER_PAIR = 5;
export const RESET_REQUESTS_PER_ADDRESS = 10;
const REGISTER_WINDOW_MS = HOUR;

// OWASP's argon2id floor (19 MiB, 2 passes): strong, and a Raspberry Pi can afford it per login.
const HASH_OPTIONS = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;

export const REGISTERED = "Registration successful. Please log in.";
export const FORGOT_MESSAGE = "If an account exists for that email, password reset instructions have been sent.";
export const RESET_DONE = "Your password has been reset. Please log in with your new password.";
export const BAD_RESET_TOKEN = RESET_TOKEN_INVALID;
/** Forgot-password without SMTP: say so plainly, and who can help, rather than pretend an email is on its way. */
export const FORGOT_NO_EMAIL =
  "Email is not set up on this server, so no reset link can be sent. Ask the person who runs it to reset your password.";
/** `nearcast users reset-password --password`: a new password is checked like a registration's. */
const setPasswordSchema = v.pick(registerSchema, ["email", "password"]);

export interface AuthDeps {
  repos: Repos;
  clock: Clock;
  config: Pick<Config, "adminEmail" | "env" | "registerLimit" | "registerGlobalLimit" | "defaultCountry">;
  logger: Logger;
  settings: Pick<SettingsService, "savedPublicUrl" | "current">;
  /** idle(), when the mailer has one, is awaited by the service's own idle(). */
  mailer: Mailer & { idle?(): Promise<void> };
  /** Owner sign-up and approval (owner-approval.ts): closed, pending, refused, and the admins' email. */
  signup: Pick<OwnerApprovalService, "refuseIfClosed" | "statusOfRegistered" | "registered" | "refuseSignIn">;
}

export function toPublicUser(u: UserRow): PublicUser {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    role: u.role,
    createdAt: u.createdAt.toISOString(),
    phone: u.phone ?? null,
    phoneVerified: u.phoneVerifiedAt != null,
    status: u.status,
  };
}

/** "4 seconds", "1 minute", "15 minutes": the wait as a person reads it (rounded up). */
function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

function tooMany(seconds: number, what = "Too many attempts."): TooManyRequestsError {
  return new TooManyRequestsError(`${what} Please wait ${waitText(seconds)} and try again.`, seconds);
}


export function createAuthService({ repos, clock, config, logger, settings, mailer, signup }: AuthDeps) {
  const loginThrottle = createLoginThrottle(clock, SESSION_TTL_MS);
  // Per (email, address), not per email: an attacker's requests from their address must not block the owner's own.
  const resetRequestsByPair = new RateLimiter(clock, RESET_REQUESTS_PER_PAIR, WINDOW_MS);
  const resetRequestsByIp = new RateLimiter(clock, RESET_REQUESTS_PER_ADDRESS, WINDOW_MS);
  const resetFailuresByIp = new RateLimiter(clock, 20, WINDOW_MS);
  const registrationsByIp = new RateLimiter(clock, config.registerLimit, REGISTER_WINDOW_MS);
  const registrations = new RateLimiter(clock, config.registerGlobalLimit, REGISTER_WINDOW_MS);
  // Emails and the reset links they carry are made after the answer has gone: see forgotPassword and register.
  const background = createBackground(logger);
  const attemptEmailNotSent = warnOnce(logger, ATTEMPT_EMAIL_NEEDS_PUBLIC_URL);
  let dummyHash: Promise<string> | null = null;

  function guard(...checks: [RateLimiter, string][]): void {
    const wait = Math.max(...checks.map(([limiter, key]) => limiter.retryAfter(key)));
    if (wait > 0) throw tooMany(wait);
  }

  function issueSession(userId: number): string {
    const token = randomToken();
    const now = clock.now();
    // Housekeeping rides along with each login, so the table holds live sessions only and never grows for good.
    repos.transaction(() => {
      repos.sessions.deleteDead(now);
      repos.sessions.insert(userId, hashToken(token), new Date(now.getTime() + SESSION_TTL_MS));
    });
    return token;
  }

  const ACCOUNT_EXISTS = "An account with this email already exists.";

  /** Inserts the account; null when the email already has one (the unique index decides a race). */
  function insertUser(data: v.InferOutput<typeof registerSchema>, passwordHash: string, role?: Role, registering = false): UserRow | null {
    const finalRole: Role = role ?? (config.adminEmail && data.email === config.adminEmail ? "admin" : "owner");
    const status = registering ? signup.statusOfRegistered(finalRole) : "approved";
    try {
      return repos.users.insert({ ...data, passwordHash, role: finalRole, status, createdAt: clock.now() });
    } catch (e) {
      if (String(e).includes("UNIQUE")) return null;
      throw e;
    }
  }

  /** For the CLI (an operator's tool, so it may say the email is taken): creates a user with an explicit role. */
  async function createUser(input: unknown, role?: Role): Promise<PublicUser> {
    const data = validate(registerSchema, input);
    if (repos.users.findByEmail(data.email)) throw new ConflictError(ACCOUNT_EXISTS);
    const row = insertUser(data, await Bun.password.hash(data.password, HASH_OPTIONS), role);
    if (!row) throw new ConflictError(ACCOUNT_EXISTS);
    return toPublicUser(row);
  }

  /** Tells the owner of an address that someone tried to register it (in the background; logged, never thrown), on
   * the saved public URL only: without one no email goes (said once in the log). */
  function tellOwnerOfAttempt(email: string): void {
    if (!mailer.configured()) return;
    const base = settings.savedPublicUrl();
    if (base === null) return attemptEmailNotSent();
    background.run("the registration-attempt email", async () => {
      const user = repos.users.findByEmail(email);
      if (!user) return;
      const { brandName } = settings.current();
      try {
        await mailer.send(registrationAttemptEmail(user.email, brandName, `${base}/login`, `${base}/forgot-password`));
        logger.info(`registration-attempt email sent for user ${user.id}`);
      } catch (err) {
        logger.warn(`registration-attempt email for user ${user.id} could not be sent: ${err instanceof AppError ? err.message : "unexpected error"}`);
      }
    });
  }

  /** Makes `token` the user's one live reset token (older ones stop working). */
  function issueResetTokenWith(userId: number, token: string): void {
    const now = clock.now();
    repos.transaction(() => {
      repos.passwordResets.useAllForUser(userId, now);
      repos.passwordResets.deleteDead(now);
      repos.passwordResets.insert(userId, hashToken(token), new Date(now.getTime() + RESET_TTL_MS));
    });
  }

  /** A fresh single-use reset token for the user (older ones stop working). */
  function issueResetToken(userId: number): string {
    const token = randomToken();
    issueResetTokenWith(userId, token);
    return token;
  }

  const resetLinkOf = (base: string, token: string) => `${base}/reset-password?token=${token}`;

  /** The account with this (normalised) email; the CLI's one-line error otherwise. */
  function accountOf(email: string): UserRow {
    const user = repos.users.findByEmail(email);
    if (!user) throw new NotFoundError(`no account with email ${email}`);
    return user;
  }

  /** Emails the reset link of `token` (already stored) to the user; a failure is logged without secrets. */
  async function mailResetLink(user: UserRow, token: string, base: string): Promise<void> {
    const { brandName } = settings.current();
    try {
      await mailer.send(resetPasswordEmail(user.email, brandName, resetLinkOf(base, token), RESET_TTL_MS / 60_000));
      logger.info(`password reset email sent for user ${user.id}`);
    } catch (err) {
      // The mailer's errors are already free of the SMTP password.
      logger.warn(`password reset email for user ${user.id} could not be sent: ${err instanceof AppError ? err.message : "unexpected error"}`);
    }
  }

  /** The background half of forgotPassword: stores the token and emails its link, if the email has an account. */
  async function sendResetLink(email: string, token: string, base: string): Promise<void> {
    const user = repos.users.findByEmail(email);
    if (!user) return;
    issueResetTokenWith(user.id, token);
    await mailResetLink(user, token, base);
  }

  return {
    /**
     * Public registration. The answer is the same whether or not the email already has an account: the same status
     * and body, after the same work (a password hash either way); the owner of a taken address gets an email about
     * it instead (when email is set up), sent after the answer. Limited per address and for the whole server per
     * hour (config registerLimit, registerGlobalLimit), so nobody fills the disk with accounts.
     */
    async register(input: unknown, clientIp: string): Promise<{ message: string }> {
      const data = validate(registerSchema, input);
      if (data.email !== config.adminEmail) signup.refuseIfClosed();
      const ip = ipKey(clientIp);
      const mine = registrationsByIp.retryAfter(ip);
      if (mine > 0) throw tooMany(mine, "Too many registrations from your network.");
      const all = registrations.retryAfter("all");
      if (all > 0) throw tooMany(all, "Too many registrations on this server right now.");
      registrationsByIp.record(ip);
      registrations.record("all");
      const taken = !!repos.users.findByEmail(data.email);
      const passwordHash = await Bun.password.hash(data.password, HASH_OPTIONS);
      // Taken, or taken meanwhile by a registration that raced this one: either way the owner hears of it.
      const row = taken ? null : insertUser(data, passwordHash, undefined, true);
      if (row) signup.registered(row);
      else tellOwnerOfAttempt(data.email);
      return { message: REGISTERED };
    },
    /** Awaits the emails (and reset links) still being made in the background: for tests and a clean shutdown. */
    async idle(): Promise<void> {
      await background.idle();
      await mailer.idle?.();
    },
    createUser,

    /**
     * First run (POST /api/setup): while it is due (see setup.ts), creates this account as the admin and logs it in.
     * The check, the insert and the session share one IMMEDIATE transaction, so of two setups racing (two tabs, two
     * processes on one data folder) exactly one becomes admin and the other gets the 409.
     */
    async setupFirstAdmin(input: unknown, alsoInTransaction?: () => void): Promise<{ token: string; user: PublicUser }> {
      const data = validate(registerSchema, input);
      const refuseUnlessDue = () => {
        const refusal = setupRefusal(repos, config.adminEmail);
        if (refusal) throw new ConflictError(refusal);
      };
      // Early answer without the cost of a hash; the check that decides is the one inside the transaction.
      refuseUnlessDue();
      const passwordHash = await Bun.password.hash(data.password, HASH_OPTIONS);
      return repos.transaction(() => {
        refuseUnlessDue();
        alsoInTransaction?.(); // setup-code.ts: the code checked and spent, the public URL saved, with the admin
        if (repos.users.findByEmail(data.email)) throw new ConflictError("An account with this email already exists.");
        const row = repos.users.insert({ ...data, passwordHash, role: "admin", createdAt: clock.now() });
        return { token: issueSession(row.id), user: toPublicUser(row) };
      });
    },

    /** Every account, oldest first: for the admin and the operator only. */
    listUsers(actor: Principal): PublicUser[] {
      if (!managesAll(actor)) throw new ForbiddenError();
      return repos.users.list().map(toPublicUser);
    },

    /**
     * Throttled per (account, address), per address and per account with growing delays (login-throttle.ts); a 429
     * with Retry-After while one of them must still wait, without looking at the password. Unknown emails are
     * throttled exactly like known ones.
     */
    async login(input: unknown, clientIp: string, deviceAccountId: number | null = null): Promise<{ token: string; user: PublicUser }> {
      const data = validate(loginSchema, input);
      const ip = ipKey(clientIp);
      const user = repos.users.findByEmail(data.email);
      // deviceAccountId: the account the browser's device cookie vouches for (device-cookies.ts), if any.
      const wait = loginThrottle.retryAfter(data.email, ip, !!user && user.id === deviceAccountId);
      if (wait > 0) throw tooMany(wait);
      // Verify against a throwaway hash for unknown emails, so timing does not reveal which accounts exist.
      dummyHash ??= Bun.password.hash(randomToken(), HASH_OPTIONS);
      const ok = await Bun.password.verify(data.password, user?.passwordHash ?? (await dummyHash));
      if (!user || !ok) {
        loginThrottle.failed(data.email, ip);
        throw new UnauthorizedError(INVALID_LOGIN);
      }
      loginThrottle.succeeded(data.email, ip);
      signup.refuseSignIn(user);
      return { token: issueSession(user.id), user: toPublicUser(user) };
    },

    /** The user behind a bearer token, or undefined when it is unknown, expired or revoked. */
    authenticate(token: string): UserRow | undefined {
      if (!token || token.length > 200) return undefined;
      const user = repos.sessions.findLiveUser(hashToken(token), clock.now());
      return user?.status === "refused" ? undefined : user;
    },

    logout(token: string): void {
      repos.sessions.revoke(hashToken(token), clock.now());
    },

    /**
     * Emails a reset link (valid RESET_TTL_MS, single use) built on the saved public URL, never on the request's
     * Host; without one it refuses (400 public_url_not_set), the same for every email. The answer is the same
     * whether or not the account exists, and so is the work done before it: the account lookup, the stored token
     * and the email all happen in the background (a failure is logged, without secrets), so how long the answer
     * takes says nothing about which accounts exist. Limited per (email, address) and per address, so an attacker's
     * requests never block the owner's own. Without SMTP it says so (400
     * email_not_configured) and creates nothing, except in development, where the token comes back in the answer
     * (emailed too only when SMTP and a public URL are both set).
     */
    forgotPassword(input: unknown, clientIp: string): { message: string; token?: string } {
      const { email } = validate(forgotPasswordSchema, input);
      const ip = ipKey(clientIp);
      const pair = pairKey(email, ip);
      guard([resetRequestsByIp, ip], [resetRequestsByPair, pair]);
      const development = config.env === "development";
      if (!development && !mailer.configured()) throw new EmailNotConfiguredError(FORGOT_NO_EMAIL);
      // Refused before anything is counted or made; development (whose answer carries the token) emails only with one.
      const base = development ? settings.savedPublicUrl() : requirePublicUrl(settings, EMAIL_LINKS_NEED_PUBLIC_URL);
      resetRequestsByIp.record(ip);
      resetRequestsByPair.record(pair);
      // The same steps whatever the email: a token is made either way, and looking up the account, storing the token
      // and sending the email all happen after the answer has gone, so its timing says nothing about the account.
      const token = randomToken();
      if (!development && base) {
        background.run("the password reset email", () => sendResetLink(email, token, base));
        return { message: FORGOT_MESSAGE };
      }
      // Development hands the token back (deliberately: there may be no SMTP to send it), so it is made now; the
      // answer then tells which accounts exist anyway, and timing does not matter.
      const user = repos.users.findByEmail(email);
      if (!user) return { message: FORGOT_MESSAGE };
      issueResetTokenWith(user.id, token);
      if (mailer.configured() && base) background.run("the password reset email", () => mailResetLink(user, token, base));
      return { message: FORGOT_MESSAGE, token };
    },

    /**
     * For the operator (`nearcast users reset-password --email E`): a one-time reset link for the account, valid
     * RESET_TTL_MS, built on the saved public URL (refused without one). Any older link of the account stops working.
     */
    resetLink(actor: Principal, input: unknown): { link: string; expiresAt: Date; user: PublicUser } {
      if (!managesAll(actor)) throw new ForbiddenError();
      const { email } = validate(forgotPasswordSchema, input);
      const base = requirePublicUrl(settings, RESET_LINK_NEEDS_PUBLIC_URL);
      const user = accountOf(email);
      const link = resetLinkOf(base, issueResetToken(user.id));
      return { link, expiresAt: new Date(clock.now().getTime() + RESET_TTL_MS), user: toPublicUser(user) };
    },

    /** For the operator (`... --password P`): sets the password, and ends the account's sessions and reset links. */
    async setPassword(actor: Principal, input: unknown): Promise<PublicUser> {
      if (!managesAll(actor)) throw new ForbiddenError();
      const { email, password } = validate(setPasswordSchema, input);
      const user = accountOf(email);
      const passwordHash = await Bun.password.hash(password, HASH_OPTIONS);
      const now = clock.now();
      repos.transaction(() => {
        repos.users.setPasswordHash(user.id, passwordHash);
        repos.passwordResets.useAllForUser(user.id, now);
        repos.sessions.revokeAllForUser(user.id, now);
      });
      loginThrottle.passwordChanged(user.email);
      return toPublicUser(user);
    },

    async resetPassword(input: unknown, clientIp: string): Promise<{ message: string }> {
      const data = validate(resetPasswordSchema, input);
      const ip = ipKey(clientIp);
      guard([resetFailuresByIp, ip]);
      const reset = repos.passwordResets.findUsable(hashToken(data.token), clock.now());
      if (!reset) {
        resetFailuresByIp.record(ip);
        throw new ValidationError(BAD_RESET_TOKEN, { token: BAD_RESET_TOKEN });
      }
      const passwordHash = await Bun.password.hash(data.newPassword, HASH_OPTIONS);
      const now = clock.now();
      repos.transaction(() => {
        // Re-check inside the transaction: the same link used twice at once must not reset twice.
        if (!repos.passwordResets.findUsable(hashToken(data.token), now)) {
          throw new ValidationError(BAD_RESET_TOKEN, { token: BAD_RESET_TOKEN });
        }
        repos.users.setPasswordHash(reset.userId, passwordHash);
        repos.passwordResets.useAllForUser(reset.userId, now);
        repos.sessions.revokeAllForUser(reset.userId, now);
      });
      const user = repos.users.findById(reset.userId);
      if (user) loginThrottle.passwordChanged(user.email);
      return { message: RESET_DONE };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
