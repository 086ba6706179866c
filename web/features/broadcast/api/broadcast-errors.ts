// What the broadcast screen says when a request fails or the server answers without a message (spec sections 7
// and 8). Pure: an error or a response in, a toast's title and text out.
import { NOT_YOUR_BUSINESS, SESSION_EXPIRED as SESSION_EXPIRED_TEXT } from "../../../../src/schemas/texts.ts";
import { ApiError, CONNECTION_ERROR } from "../../../shared/api/client.ts";

export interface ToastText {
  title: string;
  message: string;
}

export const BROADCAST_FAILED = "Broadcast Failed";
export const BROADCAST_DEFAULT = "Failed to send broadcast message. Please try again.";
export const INVALID_REQUEST = "Invalid Request";
export const INVALID_REQUEST_DEFAULT = "Invalid request. Please check your input.";
export const SESSION_EXPIRED = "Session Expired";
export const PERMISSION_DENIED = "Permission Denied";
export const CONNECTION_TITLE = "Connection Error";

/** Spec section 7: the 200 answers that are not a success. */
export const NO_SUBSCRIBERS = "No Subscribers Found";
export const NO_MESSAGE_DEFAULT = "Failed to send broadcast message.";
export const MESSAGE_SENT = "Message Sent!";

export const RETRY_FAILED = "Retry Failed";
export const RETRY_DEFAULT = "Failed to retry the failed messages. Please try again.";

/** The `error` sentence of this API's error body ({error, code}), or a short plain-text body. */
export function bodyErrorText(body: unknown): string | undefined {
  if (typeof body === "string") {
    const t = body.trim();
    // An HTML error page from a proxy is not a sentence.
    return t && t.length <= 300 && !t.startsWith("<") ? t : undefined;
  }
  if (body && typeof body === "object") {
    const error = (body as { error?: unknown }).error;
    if (typeof error === "string" && error.trim()) return error.trim();
  }
  return undefined;
}

/** Spec section 8, Broadcast: the toast for a failed PublishMessageToAllCustomers call. */
export function broadcastErrorToast(err: unknown): ToastText {
  if (!(err instanceof ApiError)) return { title: BROADCAST_FAILED, message: BROADCAST_DEFAULT };
  const text = bodyErrorText(err.body);
  switch (err.status) {
    case 0:
      return { title: CONNECTION_TITLE, message: CONNECTION_ERROR };
    case 400:
      return { title: INVALID_REQUEST, message: text ?? INVALID_REQUEST_DEFAULT };
    case 401:
      return { title: SESSION_EXPIRED, message: SESSION_EXPIRED_TEXT };
    case 403:
      // An owner the admin has not approved yet: the server's own sentence says why, not "not your business".
      if ((err.body as { code?: unknown } | null)?.code === "owner_not_approved" && text) return { title: PERMISSION_DENIED, message: text };
      return { title: PERMISSION_DENIED, message: NOT_YOUR_BUSINESS };
    default:
      return { title: BROADCAST_FAILED, message: text ?? BROADCAST_DEFAULT };
  }
}

/** The 200 answer of PublishMessageToAllCustomers: {message, ...} | {warning} | anything else. */
export interface PublishAnswer {
  message?: unknown;
  warning?: unknown;
  error?: unknown;
}

export type PublishOutcome =
  | { kind: "sent"; toast: ToastText }
  | { kind: "warning"; toast: ToastText }
  | { kind: "failed"; toast: ToastText };

/**
 * Spec section 7: a warning is a warning toast titled 'No Subscribers Found'; no message is an error toast with the
 * `error` field or 'Failed to send broadcast message.'; otherwise 'Message Sent!' with the server's message.
 */
export function publishOutcome(answer: PublishAnswer | null | undefined): PublishOutcome {
  const a = answer && typeof answer === "object" ? answer : {};
  // A queued broadcast may carry a warning too (WhatsApp recipients skipped): it was sent all the same.
  if (a.warning && !(typeof a.message === "string" && a.message.trim())) {
    const text = typeof a.warning === "string" && a.warning.trim() ? a.warning : "This business has no subscribers to send to.";
    return { kind: "warning", toast: { title: NO_SUBSCRIBERS, message: text } };
  }
  if (typeof a.message !== "string" || !a.message.trim()) {
    const text = typeof a.error === "string" && a.error.trim() ? a.error : NO_MESSAGE_DEFAULT;
    return { kind: "failed", toast: { title: BROADCAST_FAILED, message: text } };
  }
  return { kind: "sent", toast: { title: MESSAGE_SENT, message: a.message } };
}

/** A 409 duplicate_broadcast (the same text within 10 minutes): the earlier broadcast's id, else null. */
export function duplicateOf(err: unknown): number | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  const body = err.body as { code?: unknown; duplicateOf?: unknown } | null;
  return body?.code === "duplicate_broadcast" && typeof body.duplicateOf === "number" ? body.duplicateOf : null;
}

/** RetryFailedDeliveries failed: the server's sentence where it wrote one. */
export function retryErrorToast(err: unknown): ToastText {
  if (!(err instanceof ApiError)) return { title: RETRY_FAILED, message: RETRY_DEFAULT };
  if (err.status === 0) return { title: CONNECTION_TITLE, message: CONNECTION_ERROR };
  if (err.status === 401) return { title: SESSION_EXPIRED, message: SESSION_EXPIRED_TEXT };
  if (err.status === 403) return { title: PERMISSION_DENIED, message: NOT_YOUR_BUSINESS };
  return { title: RETRY_FAILED, message: bodyErrorText(err.body) ?? RETRY_DEFAULT };
}
