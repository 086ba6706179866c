import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import type { CustomerRow, CustomerSubscriptionRow } from "../repos/customers.ts";
import type { Repos } from "../repos/index.ts";
import type { SubscriptionWithOwner } from "../repos/subscriptions.ts";
import type { UserRow } from "../repos/users.ts";
import { acceptedRequestText, declinedRequestText, manualConsentText, removalText } from "../schemas/consent.ts";
import { type CustomerView, createCustomerSchema, editCustomerSchema } from "../schemas/customer-admin.ts";
import type { ContactPreference } from "../schemas/customers.ts";
import { type SubscriptionRequestView, subscriptionRequestSchema } from "../schemas/subscriptions.ts";
import { BUSINESS_NOT_FOUND } from "../schemas/texts.ts";
import { IMPORT_MAX_ROWS, IMPORT_NO_ROWS, IMPORT_TOO_MANY_ROWS } from "../schemas/customer-import.ts";
import { readImportFile } from "../lib/csv-import.ts";
import { keepOmittedFields } from "./partial-update.ts";
import { canManage, ownerScope } from "./principal.ts";
import { BUSINESS_FILTER_INVALID, CUSTOMER_TOTAL_CAP, type CustomerPage, checkCustomerPageQuery } from "../schemas/customer-pages.ts";
import { encodeCursor } from "../schemas/paging.ts";
import type { ConfirmationsService } from "./confirmations.ts";
import { enrollByOwner } from "./customer-enrollment.ts";
import { customerOperatorActions } from "./customers-operator.ts";
import type { RequestMeta } from "./subscriptions.ts";
import { validate } from "./validate.ts";
import { e164OrThrow, textableOrThrow } from "./number-rules.ts";
import { withNumberNotes } from "./customer-number-notes.ts";
import type { CurrentSettings } from "./settings.ts";

export const CUSTOMER_NOT_FOUND = "Customer not found.";

export function alreadySubscribedMessage(phone: string, businessName: string): string {
  return `${phone} is already subscribed to ${businessName}.`;
}

export function optedOutMessage(phone: string, businessName: string): string {
  return `${phone} unsubscribed from ${businessName} and can only subscribe again themselves (by scanning your QR code).`;
}

export const SUBSCRIPTION_REQUEST_NOT_FOUND = "Subscription request not found.";

/** Orders subscriptions oldest first: the one whose channel the spec's Customer shows. */
function older(a: { at: number; id: number }, b: { at: number; id: number }): boolean {
  return a.at < b.at || (a.at === b.at && a.id < b.id);
}

/**
 * Groups customer x subscription rows (already ordered) into customers. For an owner, Created Date is when the
 * person joined the owner's first business: the shared customer row may be older, and that is not theirs to see.
 * The contact preference is the viewer's oldest subscription's (each business has its own; another owner's is not
 * theirs to see).
 */
function toViews(rows: CustomerSubscriptionRow[], admin: boolean): CustomerView[] {
  const byId = new Map<number, { view: CustomerView; since: number; oldest: { at: number; id: number } }>();
  for (const r of rows) {
    const { subscriptionId, subscriptionCreatedAt, status, businessId, businessName, ownerId: _ownerId, ...customer } = r;
    const sub = { at: subscriptionCreatedAt.getTime(), id: subscriptionId };
    let entry = byId.get(r.id);
    if (!entry) {
      const since = admin ? r.createdAt.getTime() : sub.at;
      entry = { view: { ...customer, createdAt: "", businesses: [] }, since, oldest: sub };
      byId.set(r.id, entry);
    }
    if (!admin) entry.since = Math.min(entry.since, sub.at);
    if (older(sub, entry.oldest)) {
      entry.oldest = sub;
      entry.view.contactPreference = r.contactPreference;
    }
    entry.view.businesses.push({ id: businessId, name: businessName, status });
  }
  const list = [...byId.values()].map(({ view, since }) => ({ ...view, createdAt: new Date(since).toISOString() }));
  return list.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
}

export function createCustomersService({
  repos,
  clock,
  config,
  confirmations,
  settings,
}: {
  repos: Repos;
  clock: Clock;
  config: Config;
  confirmations: ConfirmationsService;
  /** The allowed countries of the moment: the number rule (number-rules.ts) on adds, edits, imports and lists. */
  settings: { current(): Pick<CurrentSettings, "allowedCountries"> };
}) {
  const allowed = () => settings.current().allowedCountries;
  /** Views with the reason a stored number may not be texted (numberProblem) or reached by WhatsApp promotions
   * (whatsappProblem), only when there is one (customer-number-notes.ts): such numbers
   * never are (the dispatcher checks them again before each send). */
  const withProblems = (views: CustomerView[]): CustomerView[] => withNumberNotes(views, allowed());

  function view(user: UserRow, id: number): CustomerView {
    const [found] = withProblems(toViews(repos.customers.visibleForCustomer(id, ownerScope(user)), user.role === "admin"));
    if (!found) throw new NotFoundError(CUSTOMER_NOT_FOUND);
    return found;
  }

  function managedBusiness(user: UserRow, businessId: number, notFound = BUSINESS_NOT_FOUND) {
    const business = repos.businesses.findById(businessId);
    if (!business || !canManage(user, business)) throw new NotFoundError(notFound);
    return business;
  }

  /** Sets the channel on every subscription of the customer to the editor's businesses (the admin's: all). */
  function setEditorsChannel(user: UserRow, customerId: number, contactPreference: ContactPreference) {
    const mine = repos.subscriptions.listByCustomer(customerId).filter((s) => canManage(user, s));
    repos.subscriptions.setContactPreference(customerId, mine.map((s) => s.businessId), contactPreference);
  }

  /** The pending request of this person to one of the user's businesses, or 404 (also for another owner's). */
  function pendingRequest(user: UserRow, input: unknown) {
    const data = validate(subscriptionRequestSchema, input);
    const business = managedBusiness(user, data.businessId, SUBSCRIPTION_REQUEST_NOT_FOUND);
    const sub = repos.subscriptions.find(data.customerId, business.id);
    if (!sub || sub.status !== "pending") throw new NotFoundError(SUBSCRIPTION_REQUEST_NOT_FOUND);
    return sub;
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
    if (target.status === "removed" || target.status === "pending") {
      repos.subscriptions.update(target.id, {
        status: sub.status,
        contactPreference: sub.contactPreference,
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

  const operator = customerOperatorActions({ repos, clock, config, confirmations, allowedCountries: allowed });
  return {
    ...operator,

    /** An owner's customers (subscribed to one of their businesses, not removed); the admin's: everyone's. */
    list(user: UserRow): CustomerView[] {
      return withProblems(toViews(repos.customers.listVisible(ownerScope(user)), user.role === "admin"));
    },

    /**
     * GET ListCustomers: one page of the customers GetAllCustomers lists (or of a status filter), newest first, by
     * keyset; a search by any part of the phone's digits; a filter by one of the viewer's businesses (another
     * owner's is a 400 naming businessId, as if it did not exist); the total across pages, counted up to a cap.
     */
    page(user: UserRow, query: Record<string, string | undefined>): CustomerPage {
      const checked = checkCustomerPageQuery(query);
      if (!checked.ok) throw new ValidationError(Object.values(checked.errors)[0]!, checked.errors);
      const p = checked.value;
      if (p.businessId !== null) {
        const business = repos.businesses.findById(p.businessId);
        if (!business || !canManage(user, business)) throw new ValidationError(BUSINESS_FILTER_INVALID, { businessId: BUSINESS_FILTER_INVALID });
      }
      const scope = ownerScope(user);
      // Most shops have one business: then its count is the cheap one (customer-pages.ts, totalOfBusiness).
      const only = p.businessId === null && scope !== null ? repos.businesses.listByOwner(scope) : [];
      const businessId = p.businessId ?? (only.length === 1 ? only[0]!.id : null);
      const filters = { ownerId: scope, businessId, statuses: p.statuses, digits: p.digits };
      const { ids, total, capped } = repos.customerPages.page({ ...filters, beforeId: p.beforeId, limit: p.limit + 1 }, CUSTOMER_TOTAL_CAP);
      const shown = ids.slice(0, p.limit);
      const byId = new Map(withProblems(toViews(repos.customers.visibleForCustomers(shown, scope, p.statuses), user.role === "admin")).map((v) => [v.id, v]));
      const nextCursor = ids.length > p.limit ? encodeCursor({ key: shown.at(-1)!, id: shown.at(-1)! }) : null;
      return { items: shown.map((id) => byId.get(id)!).filter(Boolean), nextCursor, total, totalCapped: capped };
    },

    /**
     * POST ImportCustomers: a CSV uploaded on the Customers screen into one of the user's businesses (another
     * owner's is a 404, as if it did not exist). Everything that can be refused is refused here, before anything is
     * written: the business, the header line, a file without rows. `run` then imports as the CLI does (chunks,
     * progress), the owner's browser recorded with each consent.
     */
    prepareImport(user: UserRow, businessId: number, text: string, fileName: string, meta: RequestMeta) {
      const business = repos.businesses.findById(businessId);
      if (!business || !canManage(user, business)) throw new NotFoundError(BUSINESS_NOT_FOUND);
      const rows = readImportFile(text, fileName);
      if (rows.length === 0) throw new ValidationError(IMPORT_NO_ROWS, { file: IMPORT_NO_ROWS });
      if (rows.length > IMPORT_MAX_ROWS) throw new ValidationError(IMPORT_TOO_MANY_ROWS, { file: IMPORT_TOO_MANY_ROWS });
      return {
        total: rows.length,
        run: (options: { welcome?: boolean; onProgress?: (p: { done: number; total: number }) => void }) =>
          operator.importRows(business.id, rows, fileName, { ...options, meta }),
      };
    },

    get(user: UserRow, id: number): CustomerView {
      return view(user, id);
    },

    /** The owner adds a person by hand to one of their businesses (source 'manual'). */
    create(user: UserRow, input: unknown, meta: RequestMeta): CustomerView {
      const data = validate(createCustomerSchema, input);
      const { phone } = textableOrThrow(data.phone, config.defaultCountry, allowed());
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
        // Thrown inside the transaction: nothing written stays. A number under an all-business STOP is added like
        // any other (the STOP is not this owner's to know; the broadcast enqueue keeps it in force).
        if (outcome === "already") throw new ConflictError(alreadySubscribedMessage(phone, business.name));
        if (outcome === "opted-out") throw new ConflictError(optedOutMessage(phone, business.name));
        if (data.sendConfirmation && (outcome === "subscribed" || outcome === "resubscribed")) {
          confirmations.queue({ businessId: business.id, customerIds: [customerId], origin: "owner", createdBy: user.id, phones: new Map([[customerId, phone]]) });
        }
        return customerId;
      });
      return view(user, id);
    },

    /**
     * Changes the phone number and contact preference (one left out of the body keeps its value). The preference is
     * set on every one of the editor's subscriptions of the person; no other owner's changes. A new number that is
     * free and a customer only the editor deals with: the row is renamed in place (id and history kept). Otherwise
     * (the number is another customer's, the person also belongs to other owners' businesses, or the person replied
     * STOP) the editor's subscriptions move to the customer with the new number (merging), and other owners keep the
     * old one untouched. A new number under a STOP answers like any other (200): the STOP stays with that number and
     * the broadcast enqueue keeps leaving it out. Answers the resulting customer.
     */
    update(user: UserRow, id: number, input: unknown, meta: RequestMeta): CustomerView {
      const at = clock.now();
      const resultId = repos.transaction(() => {
        const current = view(user, id);
        const customer = repos.customers.findById(id);
        if (!customer) throw new NotFoundError(CUSTOMER_NOT_FOUND);
        const data = validate(editCustomerSchema, keepOmittedFields(editCustomerSchema, { phone: customer.phone, contactPreference: current.contactPreference }, input));
        const phone = e164OrThrow(data.phone, config.defaultCountry);
        // A number already stored may stay (its channel can change; it is shown with its problem and never texted);
        // a new one must pass the rule.
        if (phone !== customer.phone) textableOrThrow(data.phone, config.defaultCountry, allowed());
        if (phone === customer.phone) {
          setEditorsChannel(user, id, data.contactPreference);
          return id;
        }
        const subs = repos.subscriptions.listByCustomer(id);
        const exclusive = subs.every((s) => canManage(user, s));
        const existing = repos.customers.findByPhone(phone);
        // A STOP belongs to the number it came from: a person under a STOP is never renamed in place (the STOP would
        // leave with the row, and the number that sent it could then be added again): their subscriptions move to a
        // customer with the new number instead.
        if (!existing && exclusive && !repos.consentEvents.optedOut(id)) {
          repos.customers.update(id, { phone });
          setEditorsChannel(user, id, data.contactPreference);
          return id;
        }
        const target = existing ?? repos.customers.insert({ phone, createdAt: at });
        for (const sub of subs) {
          if ((sub.status === "active" || sub.status === "unsubscribed") && canManage(user, sub)) moveSubscription(sub, customer, target, user, meta, at);
        }
        setEditorsChannel(user, target.id, data.contactPreference);
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

    /** Pending requests (people the user removed who asked to subscribe again) to the user's businesses. */
    listRequests(user: UserRow): SubscriptionRequestView[] {
      return repos.subscriptions.listPending(ownerScope(user)).map((r) => ({ ...r, requestedAt: r.requestedAt.toISOString() }));
    },

    /** The owner takes the person back: the subscription is active again, on the consent the person gave. */
    acceptRequest(user: UserRow, input: unknown, meta: RequestMeta): void {
      const at = clock.now();
      repos.transaction(() => {
        const sub = pendingRequest(user, input);
        repos.subscriptions.update(sub.id, { status: "active", unsubscribedAt: null });
        repos.consentEvents.insert({
          customerId: sub.customerId,
          businessId: sub.businessId,
          kind: "resubscribed",
          source: user.role === "admin" ? "admin" : "owner",
          consentText: acceptedRequestText(user.id, sub.consentText),
          ip: meta.ip,
          userAgent: meta.userAgent,
          at,
        });
      });
    },

    /** The owner keeps the person off their list: the subscription is removed again. */
    declineRequest(user: UserRow, input: unknown, meta: RequestMeta): void {
      const at = clock.now();
      repos.transaction(() => {
        const sub = pendingRequest(user, input);
        markRemoved(sub, user.role === "admin" ? "admin" : "owner", declinedRequestText(user.id), meta, at);
      });
    },

  };
}

export type CustomersService = ReturnType<typeof createCustomersService>;
