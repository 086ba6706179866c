import type { BroadcastSummary as SharedBroadcastSummary } from "../../../../src/schemas/broadcasts.ts";
import type { PublishBody } from "../../../../src/schemas/broadcast-input.ts";
import type { Page } from "../../../../src/schemas/paging.ts";
import { api, idParam, listQuery } from "../../../shared/api/client.ts";

// Typed wrappers for the broadcast screen (spec section 7, plus the subscriber count, history and retry calls of the
// broadcast feature). The business's name comes from shared/api/businesses.ts.

/**
 * The multipart fields of PublishMessageToAllCustomers as the screen holds them: the publish schema's
 * (src/schemas/broadcast-input.ts, which the route and the CLI read too), with the image still the File chosen.
 */
export type PublishFields = Omit<PublishBody, "image"> & { image?: File | null };

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

/** The part of a broadcast summary (GET /api/business/ListBroadcasts) the history reads. */
export type BroadcastSummary = Omit<SharedBroadcastSummary, "businessId">;

/** UpdateScheduledBroadcast / CancelBroadcast answers. */
export interface ScheduledChangeResponse {
  message: string;
  broadcast: BroadcastSummary;
  /** CancelBroadcast of a sending broadcast: the messages that will now never be sent. */
  cancelled?: number;
}

export interface RetryResponse {
  message: string;
  requeued: number;
}

export const BROADCASTS_PER_PAGE = 10;

function publishForm(fields: PublishFields): FormData {
  const form = new FormData();
  form.append("BusinessId", String(fields.businessId));
  form.append("MessageText", fields.messageText ?? "");
  if (fields.image) form.append("Image", fields.image, fields.image.name);
  if (fields.confirm) form.append("Confirm", "true");
  if (fields.trackLinks === false) form.append("TrackLinks", "false");
  if (fields.scheduledFor) form.append("ScheduledFor", fields.scheduledFor);
  if (fields.contentSid !== undefined) {
    form.append("ContentSid", fields.contentSid ?? "");
    form.append("ContentVariables", fields.contentVariables ?? "");
  }
  if (fields.couponCode) form.append("CouponCode", fields.couponCode);
  if (fields.uniqueCoupons) form.append("UniqueCoupons", "true");
  if (fields.couponExpires) form.append("CouponExpires", fields.couponExpires);
  return form;
}

export const broadcastApi = {
  subscriberCount: (businessId: number | string) =>
    api.get<SubscriberCount>(`/api/business/GetSubscriberCount?businessId=${idParam(businessId)}`),
  publish: (fields: PublishFields) => api.post<PublishResponse>("/api/business/PublishMessageToAllCustomers", publishForm(fields)),
  /** A new text and/or time for a scheduled broadcast that has not started. */
  updateScheduled: (broadcastId: number, changes: { messageText?: string; scheduledFor?: string }) => {
    const form = new FormData();
    form.append("BroadcastId", String(broadcastId));
    if (changes.messageText !== undefined) form.append("MessageText", changes.messageText);
    if (changes.scheduledFor !== undefined) form.append("ScheduledFor", changes.scheduledFor);
    return api.post<ScheduledChangeResponse>("/api/business/UpdateScheduledBroadcast", form);
  },
  cancel: (broadcastId: number) => api.post<ScheduledChangeResponse>(`/api/business/CancelBroadcast?broadcastId=${idParam(broadcastId)}`),
  /** One broadcast with its counts (the repeat dialog names the earlier one's recipients and time). */
  status: (id: number | string) => api.get<BroadcastSummary>(`/api/business/GetBroadcastStatus?id=${idParam(id)}`),
  /** The history, newest first, a page at a time (`cursor` from the previous page). */
  historyPage: (businessId: number | string, cursor: string | null) =>
    api.get<Page<BroadcastSummary>>(`/api/business/ListBroadcasts?${listQuery({ businessId, limit: BROADCASTS_PER_PAGE }, cursor)}`),
  retryFailed: (broadcastId: number | string) =>
    api.post<RetryResponse>(`/api/business/RetryFailedDeliveries?broadcastId=${idParam(broadcastId)}`),
};
