// The owner's own phone (issue 21, item 2): stored unverified (the same number rules as every other number), then
// verified by a 6-digit code texted to it through the messenger of the moment. One live code per account, stored
// hashed, CODE_TRIES tries, CODE_TTL_MINUTES; a new code no sooner than RESEND_AFTER_SECONDS after the last, and each
// code is a text under the hourly budget (textBudget.tryNow). Nothing is texted for an owner the admin has not
// approved. Test sends go only to a verified phone (broadcasts/test-send.ts).
import { randomInt } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { AppError, ConflictError, TooManyRequestsError, ValidationError } from "../errors.ts";
import { hashToken } from "../lib/tokens.ts";
import { waitText } from "../lib/wait-text.ts";
import type { Messenger } from "../messaging/messenger.ts";
import type { Repos } from "../repos/index.ts";
import type { UserRow } from "../repos/users.ts";
import { MY_PHONE_INVALID, MY_PHONE_MISSING, NOT_AN_OBJECT, type PublicUser } from "../schemas/auth.ts";
import { toE164 } from "../schemas/phone.ts";
import {
  ALREADY_VERIFIED,
  CODE_DIGITS,
  CODE_EXPIRED,
  CODE_LOCKED,
  CODE_NONE,
  CODE_TRIES,
  CODE_TTL_MINUTES,
  codeWrong,
  PHONE_CHANGED,
  RESEND_AFTER_SECONDS,
  verifyPhoneSchema,
} from "../schemas/phone-verification.ts";
import { toPublicUser } from "./auth.ts";
import { refuseUntextable } from "./number-rules.ts";
import { requireApprovedOwner } from "./owner-approval.ts";
import type { SettingsService } from "./settings.ts";
import { validate } from "./validate.ts";

export type BudgetAnswer = { ok: true } | { ok: false; retryAfterSeconds: number };
/** The text budget's door for a text that goes now or not at all (src/services/text-budget.ts). */
export type TryNow = (t: { ownerId: number; kind: "test" | "verification"; phone: string; now: Date }) => BudgetAnswer;

export interface PhoneVerificationDeps {
  repos: Repos;
  clock: Clock;
  config: Pick<Config, "defaultCountry">;
  settings: Pick<SettingsService, "current">;
  tryNow: TryNow;
  openMessenger: () => Messenger;
  closeMessenger: (m: Messenger) => void;
}

/** A wrong, expired or used-up code: 400 with a code of its own, so the screen knows to offer a new one. */
class CodeError extends AppError {
  constructor(code: string, message: string) {
    super(400, code, message, { code: message });
  }
}

/** The one sentence of a 429 about a text that cannot go now. */
export function budgetRefusal(what: string, seconds: number): TooManyRequestsError {
  return new TooManyRequestsError(`The hourly limit on texts nobody broadcast is reached: ${what} can go in ${waitText(seconds)}.`, seconds);
}

const hashOf = (userId: number, phone: string, code: string) => hashToken(`${userId}:${phone}:${code}`);

export function createPhoneVerificationService({ repos, clock, config, settings, tryNow, openMessenger, closeMessenger }: PhoneVerificationDeps) {
  const me = (user: UserRow) => repos.users.findById(user.id) ?? user;

  /** The rule every stored number follows; 400 naming phone. */
  const checkNumber = (phone: string) => refuseUntextable(phone, settings.current().allowedCountries);

  return {
    /**
     * PUT UpdateMyPhone: the caller's own mobile, read like a customer's number (the default country when typed
     * without a code), checked by the number rules and stored in E.164, unverified; "" or null clears it. The same
     * number again keeps its verification. 400 naming `phone`.
     */
    updateMyPhone(user: UserRow, input: unknown): PublicUser {
      if (typeof input !== "object" || input === null || Array.isArray(input)) throw new ValidationError(NOT_AN_OBJECT, { _: NOT_AN_OBJECT });
      const raw = (input as { phone?: unknown }).phone;
      let phone: string | null = null;
      if (raw !== null && raw !== "" && !(typeof raw === "string" && raw.trim() === "")) {
        phone = typeof raw === "string" && raw.length <= 40 ? toE164(raw, config.defaultCountry) : null;
        if (!phone) throw new ValidationError(MY_PHONE_INVALID, { phone: MY_PHONE_INVALID });
        checkNumber(phone);
      }
      if (me(user).phone !== phone) {
        repos.transaction(() => {
          repos.users.setPhone(user.id, phone);
          repos.phoneVerifications.remove(user.id);
        });
      }
      return toPublicUser(me(user));
    },

    /**
     * POST SendPhoneCode: texts a new code to the caller's phone (the older one stops working). 403 for an owner
     * not approved, 400 without a phone (or one the rules refuse), 409 when it is verified already, 429 with
     * Retry-After within RESEND_AFTER_SECONDS of the last code or past the hourly budget. Nothing is stored when it
     * is refused; a code the provider did not take is forgotten (502).
     */
    async sendCode(user: UserRow): Promise<{ message: string; to: string; expiresInMinutes: number; resendAfterSeconds: number }> {
      requireApprovedOwner(repos, user.id, user);
      const current = me(user);
      const phone = current.phone;
      if (!phone) throw new ValidationError(MY_PHONE_MISSING, { phone: MY_PHONE_MISSING });
      if (current.phoneVerifiedAt) throw new ConflictError(ALREADY_VERIFIED);
      checkNumber(phone);
      const now = clock.now();
      const last = repos.phoneVerifications.find(user.id);
      const since = last ? Math.floor((now.getTime() - last.createdAt.getTime()) / 1000) : Number.POSITIVE_INFINITY;
      if (since < RESEND_AFTER_SECONDS) {
        const wait = RESEND_AFTER_SECONDS - since;
        throw new TooManyRequestsError(`A code was just sent. You can ask for a new one in ${waitText(wait)}.`, wait);
      }
      const budget = tryNow({ ownerId: user.id, kind: "verification", phone, now });
      if (!budget.ok) throw budgetRefusal("a new code", budget.retryAfterSeconds);

      const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, "0");
      // Stored before it is sent: a code that arrives can always be checked.
      repos.phoneVerifications.replace({
        userId: user.id,
        phone,
        codeHash: hashOf(user.id, phone, code),
        expiresAt: new Date(now.getTime() + CODE_TTL_MINUTES * 60_000),
        createdAt: now,
      });
      const { brandName } = settings.current();
      const messenger = openMessenger();
      let outcome: Awaited<ReturnType<Messenger["send"]>>;
      try {
        outcome = await messenger.send({ to: phone, channel: "sms", body: `${code} is your ${brandName} verification code. It expires in ${CODE_TTL_MINUTES} minutes.` });
      } finally {
        closeMessenger(messenger);
      }
      if (outcome.kind !== "sent") {
        repos.phoneVerifications.remove(user.id);
        throw new AppError(502, "code_not_sent", `The code could not be texted to ${phone}: ${outcome.kind === "failed" || outcome.kind === "account_problem" ? outcome.message : "the provider did not take it"}. Check the number and try again.`);
      }
      return { message: `A ${CODE_DIGITS}-digit code was texted to ${phone}.`, to: phone, expiresInMinutes: CODE_TTL_MINUTES, resendAfterSeconds: RESEND_AFTER_SECONDS };
    },

    /**
     * POST VerifyMyPhone {code}: the code texted to the caller's phone marks it verified. 400 for a malformed or wrong
     * code (with the tries left), and, asking for a new code, for none sent, an expired one, CODE_TRIES wrong tries,
     * or a phone changed since. The check and the count of a wrong try are one transaction, so tries made at the
     * same moment cannot pass the limit.
     */
    verify(user: UserRow, input: unknown): PublicUser {
      const { code } = validate(verifyPhoneSchema, input);
      const now = clock.now();
      // The refusal is decided inside the transaction and thrown after it: a wrong try must be counted (committed).
      const refusal = repos.transaction((): CodeError | null => {
        const row = repos.phoneVerifications.find(user.id);
        if (!row) return new CodeError("code_none", CODE_NONE);
        if (row.phone !== me(user).phone) {
          repos.phoneVerifications.remove(user.id);
          return new CodeError("code_expired", PHONE_CHANGED);
        }
        if (row.expiresAt.getTime() <= now.getTime()) return new CodeError("code_expired", CODE_EXPIRED);
        if (row.attempts >= CODE_TRIES) return new CodeError("code_locked", CODE_LOCKED);
        if (row.codeHash !== hashOf(user.id, row.phone, code)) {
          const used = repos.phoneVerifications.countFailure(user.id);
          return used >= CODE_TRIES ? new CodeError("code_locked", CODE_LOCKED) : new CodeError("code_wrong", codeWrong(CODE_TRIES - used));
        }
        repos.users.markPhoneVerified(user.id, row.phone, now);
        repos.phoneVerifications.remove(user.id);
        return null;
      });
      if (refusal) throw refusal;
      return toPublicUser(me(user));
    },
  };
}

export type PhoneVerificationService = ReturnType<typeof createPhoneVerificationService>;
