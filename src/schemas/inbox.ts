// The inbox (issue 24 items 1 and 2): what customers text back, kept per conversation (one customer with one
// business), and the owner's answer. The shapes of GET /api/inbox/ListConversations, GetConversation, UnreadCount
// and the body of POST /api/inbox/Reply. Shared with web/ and the CLI.
import * as v from "valibot";
import { positiveId } from "./ids.ts";
import type { Page } from "./paging.ts";
import { text } from "./text.ts";

export const INBOX_CHANNELS = ["SMS", "WhatsApp"] as const;
export type InboxChannel = (typeof INBOX_CHANNELS)[number];

/**
 * Where the person stands with the business, as the inbox shows it:
 * - `subscribed`: follows it (on `channel`);
 * - `optedOut`: left it (STOP, the owner, the subscriptions page...);
 * - `optedOutByReply`: left it by what they texted (a STOP keyword or plain words such as "stop texting me");
 * - `notSubscribed`: never followed it (or was removed).
 * Only `subscribed` can be answered.
 */
export const CONVERSATION_STATES = ["subscribed", "optedOut", "optedOutByReply", "notSubscribed"] as const;
export type ConversationState = (typeof CONVERSATION_STATES)[number];

/** The words shown for each state. */
export const CONVERSATION_STATE_TEXTS: Record<ConversationState, string> = {
  subscribed: "Subscribed",
  optedOut: "Opted out",
  optedOutByReply: "Opted out by their reply",
  notSubscribed: "Not subscribed",
};

/** One row of ListConversations: a conversation and its latest message. */
export interface ConversationRow {
  customerId: number;
  businessId: number;
  businessName: string;
  /** E.164, e.g. +15551234567. */
  phone: string;
  /** The channel an answer goes on: the person's subscription's (else that of their latest reply). */
  channel: InboxChannel;
  /** When the latest reply came in (ISO 8601); in GetConversation for a follower who never wrote (no reply, unread
   * 0, preview ""), when they subscribed. */
  lastMessageAt: string;
  /** The start of the latest reply's text (at most 120 characters); "" for a message with only media. */
  lastMessagePreview: string;
  /** Replies not yet read by the owner (opening the conversation reads them). */
  unread: number;
  state: ConversationState;
  /** CONVERSATION_STATE_TEXTS[state], e.g. "Opted out by their reply". */
  stateText: string;
  /** WhatsApp only: a free-form answer is allowed (the person wrote within 24 hours). False for SMS. */
  whatsappWindowOpen: boolean;
  /** When the WhatsApp 24-hour window closes (ISO 8601); null when it is closed or for SMS. */
  whatsappWindowEndsAt: string | null;
}

/** ListConversations: unread first, then the newest; `cursor`, `limit` as every List* (src/schemas/paging.ts), and
 * `businessId` to keep one business. */
export type ConversationPage = Page<ConversationRow>;

/** What a thread item was: the person's reply, or what was sent to them from the business. */
export const THREAD_KINDS = ["reply", "broadcast", "confirmation", "ownerReply"] as const;
export type ThreadKind = (typeof THREAD_KINDS)[number];

/** Sent, Delivered, Failed as the customer's messages; Queued = not handed to the provider yet. */
export const THREAD_STATUSES = ["Queued", "Sent", "Delivered", "Failed"] as const;
export type ThreadStatus = (typeof THREAD_STATUSES)[number];

/** One message of a conversation. */
export interface ThreadItem {
  /** Unique within the thread: "in-12" (a reply) or "out-34" (a delivery). */
  id: string;
  /** "in": the person wrote it; "out": the business sent it. */
  direction: "in" | "out";
  kind: ThreadKind;
  body: string;
  /** The reply's pictures and files, served by us to the owner only: /api/inbox/Media/{id}. [] for none (and for
   * anything sent: a broadcast's image is in `imageUrl`). */
  mediaUrls: string[];
  /** A broadcast's image: a site path (/uploads/...) or an absolute URL; null without one. */
  imageUrl: string | null;
  channel: InboxChannel;
  /** For "out" only; null for "in". */
  status: ThreadStatus | null;
  /** Why it failed; null unless status is Failed. */
  errorMessage: string | null;
  /** When it came in, or was sent (queued: when it was asked for) (ISO 8601). */
  at: string;
}

/** GetConversation: the conversation (as in the list, now read: unread 0) and its messages, oldest first (the latest
 * THREAD_LIMIT). A follower of the business who never wrote has one too: what was sent to them (404 only for someone
 * who neither wrote to nor follows the business, or another owner's). */
export interface Conversation {
  conversation: ConversationRow;
  items: ThreadItem[];
}
export const THREAD_LIMIT = 200;

/** UnreadCount: conversations with unread replies (the nav badge). */
export interface UnreadCount {
  unread: number;
}

// Texts of POST /api/inbox/Reply (a 400 names the field as the body does).
export const REPLY_CUSTOMER_ID_INVALID = "customerId must be a positive whole number.";
export const REPLY_BUSINESS_ID_INVALID = "businessId must be a positive whole number.";
export const REPLY_MAX_LENGTH = 1600;
export const REPLY_TEXT_REQUIRED = "messageText is required.";
export const REPLY_TEXT_TOO_LONG = `messageText cannot exceed ${REPLY_MAX_LENGTH} characters.`;
/** The answer cannot go: the person opted out of the business (409). */
export const REPLY_OPTED_OUT = "This person opted out: they cannot be sent anything until they text START.";
/** The answer cannot go: the person does not follow the business (409). */
export const REPLY_NOT_SUBSCRIBED = "This person does not follow this business: there is no one to answer.";
/** A free-form WhatsApp answer outside the 24-hour window (400, field messageText). */
export const REPLY_WHATSAPP_WINDOW_CLOSED =
  "They last wrote more than 24 hours ago: WhatsApp allows only an approved template now. Choose a template (contentSid).";
/** GetConversation for someone who neither wrote to nor follows the business (or another owner's): 404. */
export const CONVERSATION_NOT_FOUND = "Conversation not found.";

const optionalText = v.optional(v.nullable(v.string()), null);

/**
 * POST /api/inbox/Reply: `{ customerId, businessId, messageText, contentSid?, contentVariables? }`. SMS at any time
 * to a subscribed person; WhatsApp free-form only within 24 hours of their last message, otherwise a template
 * (`contentSid`, HX…, and `contentVariables`, a JSON object text, checked like a broadcast's). With a template,
 * `messageText` may be blank (the template's text is sent).
 */
export const replySchema = v.pipe(
  v.object({
    customerId: positiveId(REPLY_CUSTOMER_ID_INVALID),
    businessId: positiveId(REPLY_BUSINESS_ID_INVALID),
    messageText: v.pipe(text(REPLY_TEXT_REQUIRED), v.trim(), v.maxLength(REPLY_MAX_LENGTH, REPLY_TEXT_TOO_LONG)),
    contentSid: optionalText,
    contentVariables: optionalText,
  }),
  v.forward(
    v.check((r) => r.messageText !== "" || (r.contentSid ?? "").trim() !== "", REPLY_TEXT_REQUIRED),
    ["messageText"],
  ),
);
export type ReplyBody = v.InferInput<typeof replySchema>;
export type ReplyInput = v.InferOutput<typeof replySchema>;

/** The answer to Reply: the message as the thread shows it (status Queued), and when it is held for quiet hours. */
export interface ReplyResult {
  item: ThreadItem;
  /** When quiet hours hold it, the time it may go (ISO 8601); null when it goes now. */
  heldUntil: string | null;
}
