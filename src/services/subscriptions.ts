import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { NotFoundError, TooManyRequestsError, ValidationError } from "../errors.ts";
import { ipKey, RateLimiter } from "../lib/rate-limiter.ts";
import type { Repos } from "../repos/index.ts";
import type { SubscriptionRow } from "../repos/subscriptions.ts";
import { DEFAULT_SUCCESS_MESSAGE } from "../schemas/businesses.ts";
import { consentText } from "../schemas/consent.ts";
import type { ContactPreference } from "../schemas/customers.ts";
import { type SubscribeResponse, subscribeSchema } from "../schemas/subscriptions.ts";
import { whatsappMarketingReachable } from "../schemas/whatsapp-marketing.ts";
import { WHATSAPP_CHOOSE_SMS } from "../schemas/whatsapp-reach.ts";
import type { ConfirmationsService } from "./confirmations.ts";
import { textableOrThrow } from "./number-rules.ts";
import type { CurrentSettings } from "./settings.ts";
import { validate } from "./validate.ts";
import { INVALID_PHONE } from "../schemas/texts.ts";

export const SUBSCRIBE_WINDOW_MS = 10 * 60 * 1000;
export const SUBSCRIBE_BUSINESS_NOT_FOUND = "This business was not found or is not taking subscriptions right now.";

export { INVALID_PHONE };
/** Added to the success text of a business with double opt-in. */
export const REPLY_YES_TO_CONFIRM = "To confirm, reply YES to the text we are sending you.";

export function subscribeLimitMessage(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Too many subscription attempts from your network. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;
}

/** Who gave consent from where: stored with the subscription and its consent event. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

/**
 * - subscribed / resubscribed: now an active subscriber, consent recorded.
 * - already: was an active subscriber; nothing written but the channel (the one given is this business's now).
 * - opted-out: unsubscribed from this business; only the person may undo that. Nothing written.
 * - requested: the person asked (public subscribe) to rejoin a business whose owner removed them: the subscription is
 *   'pending' until the owner accepts or declines; their consent is recorded with a 'requested' event.
 */
export type EnrollOutcome = "subscribed" | "resubscribed" | "already" | "opted-out" | "requested";

export interface Enrollment {
  customerId: number;
  businessId: number;
  /** The channel this business reaches the person on (its subscription's; no other business's changes). */
  contactPreference: ContactPreference;
  source: SubscriptionRow["source"];
  consentText: string;
  meta: RequestMeta;
  at: Date;
  /**
   * Whether the person themselves subscribes (the public page). Only the person may undo their own unsubscribe;
   * only the owner may take back someone they removed (the person's attempt becomes a pending request).
   */
  byThePerson: boolean;
  /** 'unconfirmed': the business asks for double opt-in (the person subscribing on its page, or by START); the
   * subscription waits for their YES. Default 'active'. */
  status?: "active" | "unconfirmed";
}

/**
 * Makes the customer an active subscriber of the business and records the consent. Call inside a transaction.
 * Already active: only the channel is set (subscribing twice is idempotent). Touches no other business's
 * subscription.
 *
 * An all-business opt-out (a STOP to our number, not followed by START) is not checked here: it stays in force
 * whatever is enrolled, because the broadcast enqueue leaves out anyone under it. An owner adding such a person gets
 * the same answer as for anyone else (the STOP is the person's word to our number, not the owner's to know).
 */
export function enroll(repos: Repos, e: Enrollment): EnrollOutcome {
  const { ip, userAgent } = e.meta;
  const event = (kind: "subscribed" | "resubscribed" | "requested") => ({
    customerId: e.customerId,
    businessId: e.businessId,
    kind,
    source: e.source,
    consentText: e.consentText,
    ip,
    userAgent,
    at: e.at,
  });
  const status = e.status ?? "active";
  const inserted = repos.subscriptions.insertIfNew({
    customerId: e.customerId,
    businessId: e.businessId,
    status,
    contactPreference: e.contactPreference,
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
  if (current.status === "unsubscribed" && !e.byThePerson) return "opted-out";
  const consent = { contactPreference: e.contactPreference, source: e.source, consentAt: e.at, consentText: e.consentText, ip, userAgent };
  if (current.status === "active") {
    if (current.contactPreference !== e.contactPreference) repos.subscriptions.update(current.id, { contactPreference: e.contactPreference });
    return "already";
  }
  if (e.byThePerson && (current.status === "removed" || current.status === "pending")) {
    repos.subscriptions.update(current.id, { ...consent, status: "pending" });
    repos.consentEvents.insert(event("requested"));
    return "requested";
  }
  // An unconfirmed person subscribing again stays unconfirmed (their YES is still awaited); an owner's add confirms.
  repos.subscriptions.update(current.id, { ...consent, status, unsubscribedAt: null });
  repos.consentEvents.insert(event("resubscribed"));
  return "resubscribed";
}

export function createSubscriptionsService({
  repos,
  clock,
  config,
  settings,
  confirmations,
}: {
  repos: Repos;
  clock: Clock;
  config: Config;
  settings: { current(): CurrentSettings };
  confirmations: ConfirmationsService;
}) {
  const limiter = new RateLimiter(clock, config.subscribeLimit, SUBSCRIBE_WINDOW_MS);

  return {
    /**
     * The public subscribe call. Every attempt counts towards the per-IP limit (NEARCAST_SUBSCRIBE_LIMIT per
     * 10 minutes; 0 turns it off; IPv6 per /64 like the other limits). The customer, subscription and consent event
     * are written in one transaction, so a failure leaves nothing half-written. Whatever happened (new, already
     * there, a pending request to an owner who had removed the number) the answer is the same success message: a
     * stranger typing a number learns nothing about it.
     */
    subscribe(input: unknown, meta: RequestMeta): SubscribeResponse {
      const key = ipKey(meta.ip ?? "unknown");
      const wait = limiter.retryAfter(key);
      if (wait > 0) throw new TooManyRequestsError(subscribeLimitMessage(wait), wait);
      limiter.record(key);

      const data = validate(subscribeSchema, input);
      const s = settings.current();
      const { phone, country } = textableOrThrow(data.phone, config.defaultCountry, s.allowedCountries);
      // Refused, not switched to SMS: the person chose WhatsApp, and nobody is texted on a channel they did not pick.
      if (data.contactPreference === "WhatsApp" && !whatsappMarketingReachable(phone, country)) {
        throw new ValidationError(WHATSAPP_CHOOSE_SMS, { contactPreference: WHATSAPP_CHOOSE_SMS });
      }
      const at = clock.now();
      const message = repos.transaction(() => {
        const business = repos.subscriptions.business(data.businessId);
        if (!business?.isActive) throw new NotFoundError(SUBSCRIBE_BUSINESS_NOT_FOUND);
        const customerId = repos.customers.upsertId(phone, at);
        const outcome = enroll(repos, {
          customerId,
          businessId: business.id,
          contactPreference: data.contactPreference,
          source: data.source,
          consentText: consentText(business, data.contactPreference),
          meta,
          at,
          byThePerson: true,
          status: business.doubleOptIn ? "unconfirmed" : "active",
        });
        if (outcome === "subscribed" || outcome === "resubscribed") {
          confirmations.queue({
            businessId: business.id,
            customerIds: [customerId],
            origin: "public",
            phones: new Map([[customerId, phone]]),
            business,
            settings: s,
          });
        }
        const success = business.successMessage || DEFAULT_SUCCESS_MESSAGE;
        return business.doubleOptIn ? `${success} ${REPLY_YES_TO_CONFIRM}` : success;
      });
      return { message };
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
