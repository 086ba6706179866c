import { NotFoundError, throwIfInvalid } from "../errors.ts";
import type { DeliveryHistoryRow } from "../repos/delivery-history.ts";
import type { Repos } from "../repos/index.ts";
import type { UserRow } from "../repos/users.ts";
import type { CustomerMessage, CustomerMessageStatus } from "../schemas/customer-messages.ts";
import { checkPageParams, type Page, pageOf } from "../schemas/paging.ts";
import { CUSTOMER_NOT_FOUND } from "./customers.ts";
import { NOT_SENT_UNSUBSCRIBED } from "./opt-outs.ts";
import { ownerScope } from "./principal.ts";
import { describeProviderError } from "./status-callbacks.ts";

// The messages modal of the customers list: what was sent to one customer, by which business, and what became of it.

/** Our delivery statuses as the spec's: the in-between states are "Queued" (not sent yet); a delivery skipped
 * because the person opted out shows as Failed with the reason, so the owner sees why it never arrived. */
const SHOWN_STATUS: Record<DeliveryHistoryRow["status"], CustomerMessageStatus> = {
  Queued: "Queued",
  Sending: "Queued",
  Uncertain: "Queued",
  Sent: "Sent",
  Delivered: "Delivered",
  Failed: "Failed",
  Skipped: "Failed",
  // Dropped by Twilio when the recipient's quiet hours began: not delivered, with that reason.
  Expired: "Failed",
  Cancelled: "Failed",
};

const KIND_SHOWN = { promotion: "Promotion", confirmation: "Confirmation", reply: "Reply" } as const;

export function toCustomerMessage(row: DeliveryHistoryRow): CustomerMessage {
  const status = SHOWN_STATUS[row.status];
  let errorMessage: string | null = null;
  if (row.status === "Skipped") errorMessage = row.errorMessage || NOT_SENT_UNSUBSCRIBED;
  else if (status === "Failed") errorMessage = describeProviderError(row.errorCode, row.errorMessage) ?? "Not delivered";
  return {
    businessName: row.businessName,
    status,
    messageType: row.channel,
    kind: KIND_SHOWN[row.kind],
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
    messageText: row.messageText,
    imageUrl: row.imagePath || null,
    errorMessage,
  };
}

export function createCustomerMessagesService({ repos }: { repos: Repos }) {
  return {
    /**
     * The messages to one customer, newest first. An owner must see the customer in their list (subscribed, not
     * removed, to one of their businesses; otherwise 404, as for GetCustomerById) and sees only their own
     * businesses' messages; the admin sees every business's.
     */
    list(user: UserRow, customerId: number): CustomerMessage[] {
      const scope = ownerScope(user);
      if (repos.customers.visibleForCustomer(customerId, scope).length === 0) throw new NotFoundError(CUSTOMER_NOT_FOUND);
      return repos.deliveryHistory.listForCustomer(customerId, scope).map(toCustomerMessage);
    },

    /** GET ListCustomerMessages: the same list a page at a time (cursor, limit), with the total. */
    page(user: UserRow, customerId: number, query: Record<string, string | undefined>): Page<CustomerMessage> {
      const errors = {};
      const { after, limit } = checkPageParams<number>(query, "number", errors);
      throwIfInvalid(errors);
      const scope = ownerScope(user);
      if (repos.customers.visibleForCustomer(customerId, scope).length === 0) throw new NotFoundError(CUSTOMER_NOT_FOUND);
      const rows = repos.deliveryHistory.pageForCustomer(customerId, scope, after, limit + 1);
      const total = repos.deliveryHistory.countForCustomer(customerId, scope);
      return pageOf(rows, limit, (r) => ({ key: r.shownAt, id: r.id }), total, (shown) => shown.map(toCustomerMessage));
    },
  };
}

export type CustomerMessagesService = ReturnType<typeof createCustomerMessagesService>;
