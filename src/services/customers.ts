import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import type { CustomerRow, CustomerSubscriptionRow } from "../repos/customers.ts";
import type { Repos } from "../repos/index.ts";
import type { SubscriptionWithOwner } from "../repos/subscriptions.ts";
import type { UserRow } from "../repos/users.ts";
import { manualConsentText, removalText } from "../schemas/consent.ts";
import { type CustomerView, createCustomerSchema, editCustomerSchema } from "../schemas/customer-admin.ts";
import { BUSINESS_NOT_FOUND } from "../schemas/texts.ts";
import { keepOmittedFields } from "./partial-update.ts";
import { canManage, ownerScope } from "./principal.ts";
import { enrollByOwner } from "./customer-enrollment.ts";
import { customerOperatorActions } from "./customers-operator.ts";
import { type RequestMeta, e164OrThrow } from "./subscriptions.ts";
import { validate } from "./validate.ts";

export const CUSTOMER_NOT_FOUND = "Customer not found.";

export function alreadySubscribedMessage(phone: string, businessName: string): string {
  return `${phone} is already subscribed to ${businessName}.`;
}

export function optedOutMessage(phone: string, businessName: string): string {
  return `${phone} unsubscribed from ${businessName} and can only subscribe again themselves (by scanning your QR code).`;
}

/** Manual add of a person under an all-business opt-out (409). */
export function repliedStopMessage(phone: string): string {
  return `${phone} replied STOP to our messages and can only subscribe again themselves, by scanning your QR code or texting START.`;
}

/**
 * Groups customer x subscription rows (already ordered) into customers. For an owner, Created Date is when the
 * person joined the owner's first business: the shared customer row may be older, and that is not theirs to see.
 */
function toViews(rows: CustomerSubscriptionRow[], admin: boolean): CustomerView[] {
  const byId = new Map<number, { view: CustomerView; since: number }>();
  for (const r of rows) {
    const { subscriptionCreatedAt, status, businessId, businessName, ownerId: _ownerId, ...customer } = r;
    let entry = byId.get(r.id);
    if (!entry) {
      const since = admin ? r.createdAt.getTime() : subscriptionCreatedAt.getTime();
      entry = { view: { ...customer, createdAt: "", businesses: [] }, since };
      byId.set(r.id, entry);
    }
    if (!admin) entry.since = Math.min(entry.since, subscriptionCreatedAt.getTime());
    entry.view.businesses.push({ id: businessId, name: businessName, status });
  }
  const list = [...byId.values()].map(({ view, since }) => ({ ...view, createdAt: new Date(since).toISOString() }));
  return list.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
}

export function createCustomersService({ repos, clock, config }: { repos: Repos; clock: Clock; config: Config }) {
  function view(user: UserRow, id: number): CustomerView {
    const [found] = toViews(repos.customers.visibleForCustomer(id, ownerScope(user)), user.role === "admin");
    if (!found) throw new NotFoundError(CUSTOMER_NOT_FOUND);
    return found;
  }

  function managedBusiness(user: UserRow, businessId: number) {
    const business = repos.businesses.findById(businessId);
    if (!business || !canManage(user, business)) throw new NotFoundError(BUSINESS_NOT_FOUND);
    return business;
  }

  /** Marks one subscription removed and records why (history stays). */
  function markRemoved(sub: { id: number; customerId: number; businessId: number }, source: string, text: string, meta: RequestMeta, at: Date) {
    repos.subscriptions.update(sub.id, { status: "removed" });
    repos.consentEvents.insert({
      customerId: sub.customerId,
      businessId: sub.businessId,
      kind: "removed",
      source,
      consentText: text,
      ip: meta.ip,
      userAgent: meta.userAgent,
      at,
    });
  }

  /**
   * Re-points one of the editor's subscriptions of `from` to the customer `to` (a corrected phone number).
   * - `to` has no subscription to that business: the subscription and that business's consent history move.
   * - `to` already has one the person holds (active or unsubscribed): theirs stands; `from`'s is marked removed.
   * - `to` has one the owner had removed: it takes over `from`'s state, and `from`'s is marked removed.
   */
  function moveSubscription(sub: SubscriptionWithOwner, from: CustomerRow, to: CustomerRow, user: UserRow, meta: RequestMeta, at: Date) {
    const target = repos.subscriptions.find(to.id, sub.businessId);
    const note = `Phone number corrected from ${from.phone} to ${to.phone} by the business owner (user #${user.id}).`;
    if (!target) {
      repos.subscriptions.update(sub.id, { customerId: to.id });
      repos.consentEvents.moveBusinessHistory(from.id, to.id, sub.businessId);
      return;
    }
    if (target.status === "removed") {
      repos.subscriptions.update(target.id, {
        status: sub.status,
        source: sub.source,
        consentAt: sub.consentAt,
        consentText: sub.consentText,
        ip: sub.ip,
        userAgent: sub.userAgent,
        unsubscribedAt: sub.unsubscribedAt,
      });
      repos.consentEvents.insert({
        customerId: to.id,
        businessId: sub.businessId,
        kind: sub.status === "active" ? "resubscribed" : "unsubscribed",
        source: "manual",
        consentText: note,
        ip: meta.ip,
        userAgent: meta.userAgent,
        at,
      });
    }
    markRemoved(sub, "manual", note, meta, at);
  }

  return {
    ...customerOperatorActions({ repos, clock, config }),

    /** An owner's customers (subscribed to one of their businesses, not removed); the admin's: everyone's. */
    list(user: UserRow): CustomerView[] {
      return toViews(repos.customers.listVisible(ownerScope(user)), user.role === "admin");
    },

    get(user: UserRow, id: number): CustomerView {
      return view(user, id);
    },

    /** The owner adds a person by hand to one of their businesses (source 'manual'). */
    create(user: UserRow, input: unknown, meta: RequestMeta): CustomerView {
      const data = validate(createCustomerSchema, input);
      const phone = e164OrThrow(data.phone, config.defaultCountry);
      const business = managedBusiness(user, data.businessId);
      const at = clock.now();
      const id = repos.transaction(() => {
        const { customerId, outcome } = enrollByOwner(repos, phone, data.contactPreference, {
          businessId: business.id,
          source: "manual",
          consentText: manualConsentText(business.name, user.id),
          meta,
          at,
        });
        // Thrown inside the transaction: nothing written stays.
        if (outcome === "stopped") throw new ConflictError(repliedStopMessage(phone));
        if (outcome === "already") throw new ConflictError(alreadySubscribedMessage(phone, business.name));
        if (outcome === "opted-out") throw new ConflictError(optedOutMessage(phone, business.name));
        return customerId;
      });
      return view(user, id);
    },

    /**
     * Changes the phone number and contact preference (one left out of the body keeps its value). A new number that
     * is free and a customer only the editor deals with: the row is renamed in place (id and history kept).
     * Otherwise (the number is another customer's, the person also belongs to other owners' businesses, or the
     * person replied STOP) the editor's subscriptions move to the customer with the new number (merging), and other
     * owners keep the old one untouched. A new number that replied STOP: 409, as for a manual add. Answers the
     * resulting customer.
     */
    update(user: UserRow, id: number, input: unknown, meta: RequestMeta): CustomerView {
      const at = clock.now();
      const resultId = repos.transaction(() => {
        view(user, id);
        const customer = repos.customers.findById(id);
        if (!customer) throw new NotFoundError(CUSTOMER_NOT_FOUND);
        const data = validate(editCustomerSchema, keepOmittedFields(editCustomerSchema, customer, input));
        const phone = e164OrThrow(data.phone, config.defaultCountry);
        if (phone === customer.phone) {
          repos.customers.update(id, { contactPreference: data.contactPreference });
          return id;
        }
        const subs = repos.subscriptions.listByCustomer(id);
        const exclusive = subs.every((s) => canManage(user, s));
        let target = repos.customers.findByPhone(phone);
        // A STOP belongs to the number it came from. An owner may not move their subscriptions onto a number that
        // replied STOP (that would be adding them), and a person under a STOP is never renamed in place (the STOP
        // would leave with the row, and the number that sent it could then be added again): their subscriptions
        // move to a customer with the new number instead.
        if (target && repos.consentEvents.optedOut(target.id)) throw new ConflictError(repliedStopMessage(phone));
        if (!target && exclusive && !repos.consentEvents.optedOut(id)) {
          repos.customers.update(id, { phone, contactPreference: data.contactPreference });
          return id;
        }
        target = target
          ? (repos.customers.update(target.id, { contactPreference: data.contactPreference }) ?? target)
          : repos.customers.insert({ phone, contactPreference: data.contactPreference, createdAt: at });
        for (const sub of subs) {
          if (sub.status !== "removed" && canManage(user, sub)) moveSubscription(sub, customer, target, user, meta, at);
        }
        return target.id;
      });
      return view(user, resultId);
    },

    /**
     * Takes the person off the user's list: the user's subscriptions are marked 'removed' with a consent event
     * (the admin's: every subscription). The customer row and its history stay.
     */
    remove(user: UserRow, id: number, meta: RequestMeta): void {
      const at = clock.now();
      repos.transaction(() => {
        const rows = repos.customers.visibleForCustomer(id, ownerScope(user));
        if (rows.length === 0) throw new NotFoundError(CUSTOMER_NOT_FOUND);
        for (const row of rows) {
          const sub = repos.subscriptions.find(id, row.businessId);
          if (sub) markRemoved(sub, user.role === "admin" ? "admin" : "owner", removalText(user.id), meta, at);
        }
      });
    },

  };
}

export type CustomersService = ReturnType<typeof createCustomersService>;
