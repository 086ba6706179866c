import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { NotFoundError, TooManyRequestsError, ValidationError } from "../errors.ts";
import { RateLimiter } from "../lib/rate-limiter.ts";
import type { CustomerRow } from "../repos/customers.ts";
import type { Repos } from "../repos/index.ts";
import type { SubscribableBusiness, SubscriptionRow } from "../repos/subscriptions.ts";
import { DEFAULT_SUCCESS_MESSAGE } from "../schemas/businesses.ts";
import { consentText } from "../schemas/consent.ts";
import type { ContactPreference } from "../schemas/customers.ts";
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

/** The customer with this E.164 phone, created if new; an explicit preference updates an existing one. */
export function findOrCreateCustomer(repos: Repos, phone: string, contactPreference: ContactPreference, at: Date): { customer: CustomerRow; created: boolean } {
  const existing = repos.customers.findByPhone(phone);
  if (!existing) return { customer: repos.customers.insert({ phone, contactPreference, createdAt: at }), created: true };
  if (existing.contactPreference !== contactPreference) {
    repos.customers.setContactPreference(existing.id, contactPreference);
    return { customer: { ...existing, contactPreference }, created: false };
  }
  return { customer: existing, created: false };
}

export type EnrollOutcome = "subscribed" | "resubscribed" | "already" | "opted-out";

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
 */
export function enroll(repos: Repos, e: Enrollment): EnrollOutcome {
  const consent = { consentAt: e.at, consentText: e.consentText, ip: e.meta.ip, userAgent: e.meta.userAgent };
  const event = { customerId: e.customerId, businessId: e.businessId, source: e.source, ...consent, at: e.at };
  const row = { customerId: e.customerId, businessId: e.businessId, status: "active" as const, source: e.source, ...consent, createdAt: e.at };
  if (repos.subscriptions.insertIfNew(row)) {
    repos.consentEvents.insert({ ...event, kind: "subscribed" });
    return "subscribed";
  }
  const current = repos.subscriptions.find(e.customerId, e.businessId)!;
  if (current.status === "active") return "already";
  if (current.status === "unsubscribed" && !e.byThePerson) return "opted-out";
  repos.subscriptions.update(current.id, { status: "active", source: e.source, ...consent, unsubscribedAt: null });
  repos.consentEvents.insert({ ...event, kind: "resubscribed" });
  return "resubscribed";
}

/** One validated subscribe request waiting for the next group commit. */
interface PendingSubscribe {
  /** The writes; `business` looks a business up once per batch (rows cannot change while the batch runs). */
  run(business: (id: number) => SubscribableBusiness | undefined): string;
  resolve(message: string): void;
  reject(err: unknown): void;
}

export function createSubscriptionsService({ repos, clock, config }: { repos: Repos; clock: Clock; config: Config }) {
  const limiter = new RateLimiter(clock, config.subscribeLimit, SUBSCRIBE_WINDOW_MS);

  // Group commit: the writes of every subscribe request that arrives in one turn of the event loop go into ONE
  // transaction (a commit costs far more than the few inserts of a subscription). Each request runs in its own
  // savepoint, so one failing request rolls back alone and only it gets the error; every request is answered
  // only after the transaction that holds its rows has committed.
  let pending: PendingSubscribe[] = [];
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    const batch = pending;
    pending = [];
    const outcomes: ({ ok: true; message: string } | { ok: false; error: unknown })[] = [];
    const seen = new Map<number, SubscribableBusiness | undefined>();
    const business = (id: number) => {
      if (!seen.has(id)) seen.set(id, repos.subscriptions.business(id));
      return seen.get(id);
    };
    try {
      repos.subscriptions.atomic(() => {
        for (const job of batch) {
          try {
            outcomes.push({ ok: true, message: repos.subscriptions.atomic(() => job.run(business)) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The commit itself failed: nothing of this batch is stored.
      batch.forEach((job) => job.reject(error));
      return;
    }
    batch.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.message);
      else job.reject(outcome.error);
    });
  }

  function enqueue(run: PendingSubscribe["run"]): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      pending.push({ run, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
  }

  return {
    /**
     * The public subscribe call. Every attempt counts towards the per-IP limit (NEARCAST_SUBSCRIBE_LIMIT per
     * 10 minutes; 0 turns it off). Input errors are answered at once; the customer, subscription and consent
     * event are written together (group commit) and the answer waits for the commit.
     */
    async subscribe(input: unknown, meta: RequestMeta): Promise<SubscribeResponse> {
      const ipKey = meta.ip ?? "unknown";
      const wait = limiter.retryAfter(ipKey);
      if (wait > 0) throw new TooManyRequestsError(subscribeLimitMessage(wait), wait);
      limiter.record(ipKey);

      const data = validate(subscribeSchema, input);
      const phone = e164OrThrow(data.phone, config.defaultCountry);
      const at = clock.now();
      const message = await enqueue((lookup) => {
        const business = lookup(data.businessId);
        if (!business || !business.isActive) throw new NotFoundError(SUBSCRIBE_BUSINESS_NOT_FOUND);
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
