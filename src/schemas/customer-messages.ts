// GET /api/customer/GetCustomerMessages answers a list of these, newest first (shared with web/).

/** Sent, Delivered, Failed as in the spec; Queued = not handed to the provider yet. */
export const CUSTOMER_MESSAGE_STATUSES = ["Sent", "Delivered", "Failed", "Queued"] as const;
export type CustomerMessageStatus = (typeof CUSTOMER_MESSAGE_STATUSES)[number];

export interface CustomerMessage {
  businessName: string;
  status: CustomerMessageStatus;
  messageType: "SMS" | "WhatsApp";
  /** What the message was: a broadcast's promotion, the opt-in confirmation sent when the person subscribed, or the
   * owner's answer in the inbox. */
  kind: "Promotion" | "Confirmation" | "Reply";
  /** When the provider took it (ISO 8601); null when it was never sent. */
  sentAt: string | null;
  messageText: string;
  /** The broadcast's image: a site path (/uploads/...) or an absolute URL; null without an image. */
  imageUrl: string | null;
  /** Why it failed; null unless status is Failed. */
  errorMessage: string | null;
}
