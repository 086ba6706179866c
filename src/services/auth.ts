import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ConflictError, ForbiddenError, TooManyRequestsError, UnauthorizedError, ValidationError } from "../errors.ts";
import type { Logger } from "../lib/logger.ts";
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

export interface AuthDeps {
  repos: Repos;
  clock: Clock;
  config: Pick<Config, "adminEmail" | "env">;
  logger: Logger;
  settings: Pick<SettingsService, "publicUrl">;
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

export function createAuthService({ repos, clock, config, logger, settings }: AuthDeps) {
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

    /** `origin`: the request's, the base of the reset link when no public URL is set. */
    forgotPassword(input: unknown, clientIp: string, origin?: string | null): { message: string; token?: string } {
      const { email } = validate(forgotPasswordSchema, input);
      const ip = ipKey(clientIp);
      guard([resetRequestsByIp, ip], [resetRequestsByAccount, email]);
      resetRequestsByIp.record(ip);
      resetRequestsByAccount.record(email);
      const user = repos.users.findByEmail(email);
      // Same answer whether or not the account exists.
      if (!user) return { message: FORGOT_MESSAGE };
      const token = randomToken();
      const now = clock.now();
      repos.transaction(() => {
        repos.passwordResets.useAllForUser(user.id, now);
        repos.passwordResets.deleteDead(now);
        repos.passwordResets.insert(user.id, hashToken(token), new Date(now.getTime() + RESET_TTL_MS));
      });
      if (config.env === "development") return { message: FORGOT_MESSAGE, token };
      logger.info(`password reset requested for user ${user.id}: ${settings.publicUrl(origin)}/reset-password?token=${token}`);
      return { message: FORGOT_MESSAGE };
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
