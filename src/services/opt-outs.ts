import type { Repos } from "../repos/index.ts";

// Opt-out and opt-in of one person, by the shared sender number. Every business sends from the same Twilio number,
// and a STOP to a number stops everything from it (carriers and Twilio enforce it that way too), so an opt-out
// applies to every business the person subscribed to; it is recorded once, as a consent event with no business.
// Until a START (an all-business 'resubscribed' event) it also applies to businesses they never subscribed to: no
// owner may add or import them (enroll() in subscriptions.ts), and no broadcast enqueues a message to them even if
// they subscribe again on the page themselves (the carrier blocks our number until they text START).
//
// Callers: the inbound webhook (STOP / START keywords) and the dispatcher (Twilio error 21610 on a send: the
// carrier already knows the number opted out).

/** Shown in the message history for a delivery that was not sent because the customer opted out. */
export const NOT_SENT_UNSUBSCRIBED = "Not sent: the customer unsubscribed";

export interface ConsentChange {
  /** e.g. 'sms-stop', 'sms-start', 'twilio-21610', 'cli'. Stored as the consent event's source. */
  source: string;
  at: Date;
  /** What the person sent, or why (stored with the consent event). */
  note?: string;
}

export interface OptOutResult {
  /** False when no customer has this id (nothing was written). */
  found: boolean;
  /** Businesses whose active subscription became 'unsubscribed'. */
  businessIds: number[];
  /** Deliveries of this customer that were still pending and are now Skipped. */
  skippedDeliveries: number;
  /** Whether a consent event was written (false when the person had already opted out and nothing changed). */
  recorded: boolean;
}

export interface OptInResult {
  found: boolean;
  /** Businesses whose subscription became active again. */
  businessIds: number[];
  businessNames: string[];
}

export function createOptOutsService({ repos }: { repos: Repos }) {
  return {
    /**
     * The person opted out of everything sent from our number. In ONE synchronous transaction: every active
     * subscription becomes 'unsubscribed', deliveries not yet handed to the provider become Skipped, and one
     * consent event (business null, kind 'unsubscribed') is recorded. Subscriptions the owner removed stay removed.
     * Idempotent: a second STOP with nothing left to change records nothing.
     */
    optOutCustomer(customerId: number, change: ConsentChange): OptOutResult {
      return repos.transaction(() => {
        if (!repos.customers.findById(customerId)) return { found: false, businessIds: [], skippedDeliveries: 0, recorded: false };
        const active = repos.subscriptions.listByCustomer(customerId).filter((s) => s.status === "active");
        for (const sub of active) repos.subscriptions.update(sub.id, { status: "unsubscribed", unsubscribedAt: change.at });
        const skippedDeliveries = repos.deliveryHistory.skipPendingForCustomer(customerId, change.at, NOT_SENT_UNSUBSCRIBED);
        const recorded = active.length > 0 || skippedDeliveries > 0 || !repos.consentEvents.optedOut(customerId);
        if (recorded) {
          repos.consentEvents.insert({
            customerId,
            businessId: null,
            kind: "unsubscribed",
            source: change.source,
            consentText: change.note ?? null,
            ip: null,
            userAgent: null,
            at: change.at,
          });
        }
        return { found: true, businessIds: active.map((s) => s.businessId), skippedDeliveries, recorded };
      });
    },

    /**
     * The person left one business themselves (the subscriptions page): like a STOP, but for that business only. Its
     * active (or unconfirmed) subscription becomes 'unsubscribed', its deliveries not handed to the provider yet become
     * Skipped, and one consent event (that business, kind 'unsubscribed') is recorded; only the person may undo it.
     * Idempotent: nothing to end writes nothing.
     */
    optOutBusiness(customerId: number, businessId: number, change: ConsentChange): OptOutResult {
      return repos.transaction(() => {
        const sub = repos.subscriptions.listByCustomer(customerId).find((s) => s.businessId === businessId);
        if (!sub || (sub.status !== "active" && sub.status !== "unconfirmed")) return { found: sub !== undefined, businessIds: [], skippedDeliveries: 0, recorded: false };
        repos.subscriptions.update(sub.id, { status: "unsubscribed", unsubscribedAt: change.at });
        const skippedDeliveries = repos.deliveryHistory.skipPendingForCustomer(customerId, change.at, NOT_SENT_UNSUBSCRIBED, businessId);
        const { source, note, at } = change;
        repos.consentEvents.insert({ customerId, businessId, kind: "unsubscribed", source, consentText: note ?? null, ip: null, userAgent: null, at });
        return { found: true, businessIds: [businessId], skippedDeliveries, recorded: true };
      });
    },

    /**
     * The person opted back in (START / YES / UNSTOP). The all-business opt-out ends: one 'resubscribed' event with
     * no business (from then on owners may add them again and broadcasts reach them). Only subscriptions that an
     * opt-out unsubscribed come back: status 'unsubscribed', consent given before that opt-out, and the latest
     * consent event about the subscription (its business's or an all-business one) is that opt-out. Subscriptions
     * the owner removed, and businesses the person left some other way, stay as they are. One 'resubscribed' event
     * per subscription, all in one transaction. Idempotent: not under an opt-out and nothing left to resubscribe
     * writes nothing.
     */
    optInCustomer(customerId: number, change: ConsentChange): OptInResult {
      return repos.transaction(() => {
        if (!repos.customers.findById(customerId)) return { found: false, businessIds: [], businessNames: [] };
        // Not under an opt-out: nothing to lift, and nothing an opt-out unsubscribed is waiting to come back.
        if (!repos.consentEvents.optedOut(customerId)) return { found: true, businessIds: [], businessNames: [] };
        const events = repos.consentEvents.listByCustomer(customerId);
        const back = repos.subscriptions.listByCustomer(customerId).filter((sub) => {
          if (sub.status !== "unsubscribed") return false;
          const last = events.filter((e) => e.businessId === sub.businessId || e.businessId === null).at(-1);
          return last !== undefined && last.businessId === null && last.kind === "unsubscribed" && sub.consentAt.getTime() <= last.at.getTime();
        });
        const event = { customerId, kind: "resubscribed" as const, source: change.source, consentText: change.note ?? null, ip: null, userAgent: null, at: change.at };
        // The opt-out ends (recorded first: the per-business events follow it).
        repos.consentEvents.insert({ ...event, businessId: null });
        for (const sub of back) {
          repos.subscriptions.update(sub.id, { status: "active", unsubscribedAt: null });
          repos.consentEvents.insert({ ...event, businessId: sub.businessId });
        }
        return { found: true, businessIds: back.map((s) => s.businessId), businessNames: back.map((s) => s.businessName) };
      });
    },
  };
}

export type OptOutsService = ReturnType<typeof createOptOutsService>;
