// GET /api/customer/ListCustomers: the Customers screen's paged list (issue 12), next to the spec's GetAllCustomers.
// Shared with web/.
import type { FieldErrors } from "./check.ts";
import type { CustomerView } from "./customer-admin.ts";
import { parseIdText } from "./ids.ts";
import { checkPageParams, type Page } from "./paging.ts";
import type { SubscriptionStatus } from "./subscriptions-types.ts";

export const STATUS_INVALID = "status must be subscribed, unsubscribed or pending";
export const BUSINESS_FILTER_INVALID = "businessId must be the id of one of your businesses";
export const SEARCH_INVALID = "q must be part of a phone number (up to 16 digits)";

/** The filter's words -> the subscription statuses they list. No filter: what GetAllCustomers lists. */
export const STATUS_FILTERS: Record<string, readonly SubscriptionStatus[]> = {
  subscribed: ["active"],
  unsubscribed: ["unsubscribed"],
  // Waiting for someone: the owner (a removed person asking to come back) or the person (double opt-in's YES).
  pending: ["pending", "unconfirmed"],
};
export const LISTED_STATUSES: readonly SubscriptionStatus[] = ["active", "unsubscribed"];

/** Counting stops here (issue 26 item 7: a town's million rows took 0.4 s a page): "Showing 50 of 10,000+". One
 * business's count reads only an index and stays exact. */
export const CUSTOMER_TOTAL_CAP = 10_000;

/** `totalCapped`: more than `total` (the cap) match. */
export type CustomerPage = Page<CustomerView> & { totalCapped: boolean };

export interface CustomerPageParams {
  beforeId: number | null;
  limit: number;
  digits: string | null;
  businessId: number | null;
  statuses: readonly SubscriptionStatus[];
}

/** The query string checked: every bad value named by its field. */
export function checkCustomerPageQuery(q: Record<string, string | undefined>): { ok: true; value: CustomerPageParams } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const given = (k: string) => q[k] !== undefined && q[k] !== "";
  const { after, limit } = checkPageParams<number>(q, "number", errors);
  const beforeId = after?.id ?? null;
  let digits: string | null = null;
  if (given("q")) {
    digits = q.q!.replace(/\D/g, "");
    if (!digits || digits.length > 16 || q.q!.length > 40) errors.q = SEARCH_INVALID;
  }
  let businessId: number | null = null;
  if (given("businessId")) {
    businessId = parseIdText(q.businessId);
    if (businessId === null) errors.businessId = BUSINESS_FILTER_INVALID;
  }
  let statuses = LISTED_STATUSES;
  if (given("status")) {
    const s = STATUS_FILTERS[q.status!];
    if (!s) errors.status = STATUS_INVALID;
    else statuses = s;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value: { beforeId, limit, digits, businessId, statuses } };
}
