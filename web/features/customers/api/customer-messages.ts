import type { CustomerMessage, CustomerMessageStatus } from "../../../../src/schemas/customer-messages.ts";
import type { Page } from "../../../../src/schemas/paging.ts";
import { api, listQuery } from "../../../shared/api/client.ts";

/** One message sent (or queued) to a customer. */
export type { CustomerMessage };
export type MessageStatus = CustomerMessageStatus;

export const MESSAGES_PER_PAGE = 20;

export const customerMessagesApi = {
  /** A customer's messages, newest first, a page at a time (`cursor` from the previous page). */
  page: ({ customerId }: { customerId: number | string }, cursor: string | null) =>
    api.get<Page<CustomerMessage>>(`/api/customer/ListCustomerMessages?${listQuery({ customerId, limit: MESSAGES_PER_PAGE }, cursor)}`),
};
