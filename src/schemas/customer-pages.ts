// GET /api/customer/ListCustomers: the Customers screen's paged list (issue 12), next to the spec's GetAllCustomers.
// Shared with web/.
import type { FieldErrors } from "./check.ts";
import type { CustomerView } from "./customer-admin.ts";
import { parseIdText } from "./ids.ts";
import type { SubscriptionStatus } from "./subscriptions-types.ts";

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 200;
export const LIMIT_INVALID = `limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}`;
export const CURSOR_INVALID = "cursor is not one this list gave out; start again without it";
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

export interface CustomerPage {
  items: CustomerView[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
  /** Customers matching the filters, across all pages. */
  total: number;
}

export interface CustomerPageParams {
  beforeId: number | null;
  limit: number;
  digits: string | null;
  businessId: number | null;
  statuses: readonly SubscriptionStatus[];
}

export const encodeCursor = (id: number) => Buffer.from(`c${id}`).toString("base64url");

function decodeCursor(raw: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,24}$/.test(raw)) return null;
  const text = Buffer.from(raw, "base64url").toString();
  return /^c[1-9]\d{0,15}$/.test(text) ? parseIdText(text.slice(1)) : null;
}

/** The query string checked: every bad value named by its field. */
export function checkCustomerPageQuery(q: Record<string, string | undefined>): { ok: true; value: CustomerPageParams } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const given = (k: string) => q[k] !== undefined && q[k] !== "";
  let beforeId: number | null = null;
  if (given("cursor")) {
    beforeId = decodeCursor(q.cursor!);
    if (beforeId === null) errors.cursor = CURSOR_INVALID;
  }
  let limit = PAGE_LIMIT_DEFAULT;
  if (given("limit")) {
    limit = /^\d{1,3}$/.test(q.limit!) ? Number(q.limit) : 0;
    if (limit < 1 || limit > PAGE_LIMIT_MAX) errors.limit = LIMIT_INVALID;
  }
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
