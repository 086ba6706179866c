import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import * as v from "valibot";
import { AppError, ConflictError, ForbiddenError, NotFoundError, TooManyRequestsError, UnauthorizedError, ValidationError } from "../errors.ts";
import type { Logger } from "../lib/logger.ts";
import { EmailNotConfiguredError, type Mailer } from "../mail/mailer.ts";
import { resetPasswordEmail } from "../mail/templates.ts";
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
import { setupRefusal } from "./setup.ts";
import { validate } from "./validate.ts";

export const SESSION_TTL_MS = 30 * 24 * 3600_000;
export const RESET_TTL_MS = 30 * 60_000;
const WINDOW_MS = 15 * 60_000;

// OWASP's argon2id floor (19 MiB, 2 passes): strong, and a Raspberry Pi can afford it per login.
const HASH_OPTIONS = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;

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
  config: Pick<Config, "adminEmail" | "env">;
  logger: Logger;
  settings: Pick<SettingsService, "publicUrl" | "current">;
  mailer: Mailer;
}

export function toPublicUser(u: UserRow): PublicUser {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    role: u.role,
    createdAt: u.createdAt.toISOString(),
  };
}

function tooMany(seconds: number): TooManyRequestsError {
  const minutes = Math.ceil(seconds / 60);
  return new TooManyRequestsError(
    `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
    seconds,
  );
}

export function createAuthService({ repos, clock, config, logger, settings, mailer }: AuthDeps) {
  // Failures only: a user who logs in fine is never slowed down, and nothing locks an account for good.
  const loginFailuresByIp = new RateLimiter(clock, 20, WINDOW_MS);
  const loginFailuresByAccount = new RateLimiter(clock, 10, WINDOW_MS);
  const resetRequestsByIp = new RateLimiter(clock, 10, WINDOW_MS);
  const resetRequestsByAccount = new RateLimiter(clock, 5, WINDOW_MS);
  const resetFailuresByIp = new RateLimiter(clock, 20, WINDOW_MS);
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

  async function createUser(input: unknown, role?: Role): Promise<PublicUser> {
    const data = validate(registerSchema, input);
    if (repos.users.findByEmail(data.email)) throw new ConflictError("An account with this email already exists.");
    const passwordHash = await Bun.password.hash(data.password, HASH_OPTIONS);
    const finalRole: Role = role ?? (config.adminEmail && data.email === config.adminEmail ? "admin" : "owner");
    try {
      const row = repos.users.insert({ ...data, passwordHash, role: finalRole, createdAt: clock.now() });
      return toPublicUser(row);
    } catch (e) {
      // Two registrations raced past the check above; the unique index decided.
      if (String(e).includes("UNIQUE")) throw new ConflictError("An account with this email already exists.");
      throw e;
    }
  }

  /** A fresh single-use reset token for the user (older ones stop working). */
  function issueResetToken(userId: number): string {
    const token = randomToken();
    const now = clock.now();
    repos.transaction(() => {
      repos.passwordResets.useAllForUser(userId, now);
      repos.passwordResets.deleteDead(now);
      repos.passwordResets.insert(userId, hashToken(token), new Date(now.getTime() + RESET_TTL_MS));
    });
    return token;
  }

  const resetLinkOf = (base: string, token: string) => `${base}/reset-password?token=${token}`;

  /** The account with this (normalised) email; the CLI's one-line error otherwise. */
  function accountOf(email: string): UserRow {
    const user = repos.users.findByEmail(email);
    if (!user) throw new NotFoundError(`no account with email ${email}`);
    return user;
  }

  return {
    register: (input: unknown) => createUser(input),
    /** For the CLI: creates a user with an explicit role. */
    createUser,

    /**
     * First run (POST /api/setup): while it is due (see setup.ts), creates this account as the admin and logs it in.
     * The check, the insert and the session share one IMMEDIATE transaction, so of two setups racing (two tabs, two
     * processes on one data folder) exactly one becomes admin and the other gets the 409.
     */
    async setupFirstAdmin(input: unknown): Promise<{ token: string; user: PublicUser }> {
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

    async login(input: unknown, clientIp: string): Promise<{ token: string; user: PublicUser }> {
      const data = validate(loginSchema, input);
      const ip = ipKey(clientIp);
      guard([loginFailuresByIp, ip], [loginFailuresByAccount, data.email]);
      const user = repos.users.findByEmail(data.email);
      // Verify against a throwaway hash for unknown emails, so timing does not reveal which accounts exist.
      dummyHash ??= Bun.password.hash(randomToken(), HASH_OPTIONS);
      const ok = await Bun.password.verify(data.password, user?.passwordHash ?? (await dummyHash));
      if (!user || !ok) {
        loginFailuresByIp.record(ip);
        loginFailuresByAccount.record(data.email);
        throw new UnauthorizedError(INVALID_LOGIN);
      }
      return { token: issueSession(user.id), user: toPublicUser(user) };
    },

    /** The user behind a bearer token, or undefined when it is unknown, expired or revoked. */
    authenticate(token: string): UserRow | undefined {
      if (!token || token.length > 200) return undefined;
      return repos.sessions.findLiveUser(hashToken(token), clock.now());
    },

    logout(token: string): void {
      repos.sessions.revoke(hashToken(token), clock.now());
    },

    /**
     * Emails a reset link (valid RESET_TTL_MS, single use) built on the public URL, or on `origin` (the request's)
     * when none is set. The answer is the same whether or not the account exists, and it does not wait for the SMTP
     * server: the email goes out in the background (a failure is logged, without secrets), so how long the answer
     * takes says nothing about which accounts exist. Without SMTP it says so (400 email_not_configured) and creates
     * nothing, except in development, where the token comes back in the answer.
     */
    forgotPassword(input: unknown, clientIp: string, origin?: string | null): { message: string; token?: string } {
      const { email } = validate(forgotPasswordSchema, input);
      const ip = ipKey(clientIp);
      guard([resetRequestsByIp, ip], [resetRequestsByAccount, email]);
      const development = config.env === "development";
      if (!development && !mailer.configured()) throw new EmailNotConfiguredError(FORGOT_NO_EMAIL);
      resetRequestsByIp.record(ip);
      resetRequestsByAccount.record(email);
      const user = repos.users.findByEmail(email);
      // Same answer whether or not the account exists.
      if (!user) return { message: FORGOT_MESSAGE };
      const token = issueResetToken(user.id);
      if (mailer.configured()) {
        const link = resetLinkOf(settings.publicUrl(origin), token);
        const { brandName } = settings.current();
        // Not awaited: see above. The mailer's errors are already free of the SMTP password.
        mailer.send(resetPasswordEmail(user.email, brandName, link, RESET_TTL_MS / 60_000)).then(
          () => logger.info(`password reset email sent for user ${user.id}`),
          (err) => logger.warn(`password reset email for user ${user.id} could not be sent: ${err instanceof AppError ? err.message : "unexpected error"}`),
        );
      }
      if (development) return { message: FORGOT_MESSAGE, token };
      return { message: FORGOT_MESSAGE };
    },

    /**
     * For the operator (`nearcast users reset-password --email E`): a one-time reset link for the account, valid
     * RESET_TTL_MS, built on the public URL setting. Any older link of the account stops working.
     */
    resetLink(actor: Principal, input: unknown): { link: string; expiresAt: Date; user: PublicUser } {
      if (!managesAll(actor)) throw new ForbiddenError();
      const { email } = validate(forgotPasswordSchema, input);
      const user = accountOf(email);
      const link = resetLinkOf(settings.publicUrl(), issueResetToken(user.id));
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
      loginFailuresByAccount.reset(user.email);
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
      if (user) loginFailuresByAccount.reset(user.email);
      return { message: RESET_DONE };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
