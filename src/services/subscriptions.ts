import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { NotFoundError, TooManyRequestsError, ValidationError } from "../errors.ts";
import { ipKey, RateLimiter } from "../lib/rate-limiter.ts";
import type { Repos } from "../repos/index.ts";
import type { SubscriptionRow } from "../repos/subscriptions.ts";
import { DEFAULT_SUCCESS_MESSAGE } from "../schemas/businesses.ts";
import { consentText } from "../schemas/consent.ts";
import { toE164 } from "../schemas/phone.ts";
import { type SubscribeResponse, subscribeSchema } from "../schemas/subscriptions.ts";
import { validate } from "./validate.ts";

export const SUBSCRIBE_WINDOW_MS = 10 * 60 * 1000;
export const SUBSCRIBE_BUSINESS_NOT_FOUND = "This business was not found or is not taking subscriptions right now.";
export const INVALID_PHONE = "Please enter a valid phone number";

export function subscribeLimitMessage(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Too many subscription attempts from your network. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;
}

/** Who gave consent from where: stored with the subscription and its consent event. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

/** The E.164 form of a typed number, or a 400 on the phone field with the spec's text. */
export function e164OrThrow(raw: string, defaultCountry: string): string {
  const phone = toE164(raw, defaultCountry);
  if (!phone) throw new ValidationError(INVALID_PHONE, { phone: INVALID_PHONE });
  return phone;
}

/**
 * - subscribed / resubscribed: now an active subscriber, consent recorded.
 * - already: was an active subscriber; nothing written.
 * - opted-out: unsubscribed from this business; only the person may undo that. Nothing written.
 * - stopped: replied STOP to our number (or Twilio answered 21610) and has not texted START since; only the person
 *   may subscribe them again. Nothing written.
 */
export type EnrollOutcome = "subscribed" | "resubscribed" | "already" | "opted-out" | "stopped";

export interface Enrollment {
  customerId: number;
  businessId: number;
  source: SubscriptionRow["source"];
  consentText: string;
  meta: RequestMeta;
  at: Date;
  /**
   * Whether this enrollment may undo the person's own unsubscribe. Only the person may (scanning the code
   * again); an owner adding or importing them must not override a STOP.
   */
  byThePerson: boolean;
}

/**
 * Makes the customer an active subscriber of the business and records the consent. Call inside a transaction.
 * Already active: nothing is written (subscribing twice is idempotent).
 *
 * A STOP to our number applies to every business that sends from it, including businesses the person never
 * subscribed to: an owner (adding by hand or importing) cannot enroll someone under such an opt-out ('stopped').
 * The person themselves may (fresh, explicit consent on the subscribe page): the subscription and its consent are
 * recorded as usual, and messages reach them once they text START (until then the carrier blocks them, and the
 * broadcast enqueue leaves them out).
 */
export function enroll(repos: Repos, e: Enrollment): EnrollOutcome {
  if (!e.byThePerson && repos.consentEvents.optedOut(e.customerId)) return "stopped";
  const { ip, userAgent } = e.meta;
  const event = (kind: "subscribed" | "resubscribed") => ({
    customerId: e.customerId,
    businessId: e.businessId,
    kind,
    source: e.source,
    consentText: e.consentText,
    ip,
    userAgent,
    at: e.at,
  });
  const inserted = repos.subscriptions.insertIfNew({
    customerId: e.customerId,
    businessId: e.businessId,
    status: "active",
    source: e.source,
    consentAt: e.at,
    consentText: e.consentText,
    ip,
    userAgent,
    createdAt: e.at,
  });
  if (inserted) {
    repos.consentEvents.insert(event("subscribed"));
    return "subscribed";
  }
  const current = repos.subscriptions.find(e.customerId, e.businessId)!;
  if (current.status === "active") return "already";
  if (current.status === "unsubscribed" && !e.byThePerson) return "opted-out";
  repos.subscriptions.update(current.id, { status: "active", source: e.source, consentAt: e.at, consentText: e.consentText, ip, userAgent, unsubscribedAt: null });
  repos.consentEvents.insert(event("resubscribed"));
  return "resubscribed";
}

export function createSubscriptionsService({ repos, clock, config }: { repos: Repos; clock: Clock; config: Config }) {
  const limiter = new RateLimiter(clock, config.subscribeLimit, SUBSCRIBE_WINDOW_MS);

  return {
    /**
     * The public subscribe call. Every attempt counts towards the per-IP limit (NEARCAST_SUBSCRIBE_LIMIT per
     * 10 minutes; 0 turns it off; IPv6 per /64 like the other limits). The customer, subscription and consent event
     * are written in one transaction, so a failure leaves nothing half-written.
     */
    subscribe(input: unknown, meta: RequestMeta): SubscribeResponse {
      const key = ipKey(meta.ip ?? "unknown");
      const wait = limiter.retryAfter(key);
      if (wait > 0) throw new TooManyRequestsError(subscribeLimitMessage(wait), wait);
      limiter.record(key);

      const data = validate(subscribeSchema, input);
      const phone = e164OrThrow(data.phone, config.defaultCountry);
      const at = clock.now();
      const message = repos.transaction(() => {
        const business = repos.subscriptions.business(data.businessId);
        if (!business?.isActive) throw new NotFoundError(SUBSCRIBE_BUSINESS_NOT_FOUND);
        enroll(repos, {
          customerId: repos.customers.upsertId(phone, data.contactPreference, at),
          businessId: business.id,
          source: data.source,
          consentText: consentText(business.name, data.contactPreference),
          meta,
          at,
          byThePerson: true,
        });
        return business.successMessage || DEFAULT_SUCCESS_MESSAGE;
      });
      return { message };
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
