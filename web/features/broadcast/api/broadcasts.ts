import type { BroadcastSummary as SharedBroadcastSummary } from "../../../../src/schemas/broadcasts.ts";
import type { CustomerMessage, CustomerMessageStatus } from "../../../../src/schemas/customer-messages.ts";
import type { Page } from "../../../../src/schemas/paging.ts";
import { api, listQuery } from "../../../shared/api/client.ts";

// Typed wrappers for the broadcast screen and the customer messages modal (spec section 7, plus the subscriber
// count, history and retry calls of the broadcast feature).

const q = (id: number | string) => encodeURIComponent(String(id));

/** The part of GET /api/business/GetBusinessById this screen reads. */
export interface BusinessName {
  id: number;
  name: string;
  /** Only in the full view, which the server gives the business's owner (or an admin): absent = not yours. */
  ownerId?: number;
}

/** 200 answers of PublishMessageToAllCustomers: {message, broadcastId, recipients} or {warning}. */
export interface PublishResponse {
  message?: string;
  broadcastId?: number;
  recipients?: number;
  /** Set when it was scheduled (ISO, UTC). */
  scheduledFor?: string;
  warning?: string;
  error?: string;
}

/** Active subscribers of a business by channel. */
export interface SubscriberCount {
  total: number;
  sms: number;
  whatsapp: number;
}

/** The part of a broadcast summary (GET /api/business/GetBroadcasts) the history reads. */
export type BroadcastSummary = Omit<SharedBroadcastSummary, "businessId" | "skipped">;

/** UpdateScheduledBroadcast / CancelBroadcast answers. */
export interface ScheduledChangeResponse {
  message: string;
  broadcast: BroadcastSummary;
}

export interface RetryResponse {
  message: string;
  requeued: number;
}

/** One message sent (or queued) to a customer. */
export type { CustomerMessage };
export type MessageStatus = CustomerMessageStatus;

export const broadcastApi = {
  business: (id: number | string) => api.get<BusinessName>(`/api/business/GetBusinessById?id=${q(id)}`),
  subscriberCount: (businessId: number | string) =>
    api.get<SubscriberCount>(`/api/business/GetSubscriberCount?businessId=${q(businessId)}`),
  /** Multipart BusinessId, MessageText and, only when chosen, Image. */
  publish: (
    businessId: number | string,
    messageText: string,
    image: File | null,
    confirm = false,
    scheduledFor: string | null = null,
    template: { contentSid: string; contentVariables: string } | null = null,
  ) => {
    const form = new FormData();
    form.append("BusinessId", String(businessId));
    form.append("MessageText", messageText);
    if (image) form.append("Image", image, image.name);
    // Only after the owner said yes to sending the same text again within 10 minutes (a 409 duplicate_broadcast).
    if (confirm) form.append("Confirm", "true");
    // "Send later": ISO 8601 with the browser's offset (sendLaterIso in SendLaterField.tsx).
    if (scheduledFor) form.append("ScheduledFor", scheduledFor);
    // A WhatsApp template for the WhatsApp recipients (WhatsAppTemplateField.tsx).
    if (template) {
      form.append("ContentSid", template.contentSid);
      form.append("ContentVariables", template.contentVariables);
    }
    return api.post<PublishResponse>("/api/business/PublishMessageToAllCustomers", form);
  },
  /** A new text and/or time for a scheduled broadcast that has not started. */
  updateScheduled: (broadcastId: number, changes: { messageText?: string; scheduledFor?: string }) => {
    const form = new FormData();
    form.append("BroadcastId", String(broadcastId));
    if (changes.messageText !== undefined) form.append("MessageText", changes.messageText);
    if (changes.scheduledFor !== undefined) form.append("ScheduledFor", changes.scheduledFor);
    return api.post<ScheduledChangeResponse>("/api/business/UpdateScheduledBroadcast", form);
  },
  cancel: (broadcastId: number) => api.post<ScheduledChangeResponse>(`/api/business/CancelBroadcast?broadcastId=${q(broadcastId)}`),
  /** One broadcast with its counts (the repeat dialog names the earlier one's recipients and time). */
  status: (id: number | string) => api.get<BroadcastSummary>(`/api/business/GetBroadcastStatus?id=${q(id)}`),
  /** Newest first. */
  history: (businessId: number | string) => api.get<BroadcastSummary[]>(`/api/business/GetBroadcasts?businessId=${q(businessId)}`),
  /** The same history a page at a time (`cursor` from the previous page). */
  historyPage: (businessId: number | string, cursor: string | null) =>
    api.get<Page<BroadcastSummary>>(`/api/business/ListBroadcasts?${listQuery({ businessId, limit: BROADCASTS_PER_PAGE }, cursor)}`),
  retryFailed: (broadcastId: number | string) =>
    api.post<RetryResponse>(`/api/business/RetryFailedDeliveries?broadcastId=${q(broadcastId)}`),
};

export const MESSAGES_PER_PAGE = 20;
export const BROADCASTS_PER_PAGE = 10;

export const customerMessagesApi = {
  /** Newest first. */
  list: (customerId: number | string) => api.get<CustomerMessage[]>(`/api/customer/GetCustomerMessages?customerId=${q(customerId)}`),
  /** The same list a page at a time (`cursor` from the previous page). */
  page: ({ customerId }: { customerId: number | string }, cursor: string | null) =>
    api.get<Page<CustomerMessage>>(`/api/customer/ListCustomerMessages?${listQuery({ customerId, limit: MESSAGES_PER_PAGE }, cursor)}`),
};

/** Spec: an image URL starting with http is used as is; anything else is relative to the site origin. */
export function absoluteImageUrl(url: string, origin: string = window.location.origin): string {
  if (/^https?:\/\//i.test(url)) return url;
  return `${origin}/${url.replace(/^\/+/, "")}`;
}

/** "Nov 22, 2026, 3:04 PM" (US English, local time); "" for a missing or unreadable date. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" });
}
