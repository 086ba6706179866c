// The inbox's rows as the API shows them (src/schemas/inbox.ts), from what src/repos/sql/inbox.ts reads.
import { WHATSAPP_WINDOW_MS } from "../../repos/customer-inbound.ts";
import type { ConversationRecord, ThreadRecord } from "../../repos/sql/inbox.ts";
import { CONVERSATION_STATE_TEXTS, type ConversationRow, type ConversationState, type ThreadItem, type ThreadKind, type ThreadStatus } from "../../schemas/inbox.ts";
import { describeProviderError } from "../status-callbacks.ts";
import { NOT_SENT_UNSUBSCRIBED } from "../opt-outs.ts";

/** The longest preview a row carries. */
export const PREVIEW_LENGTH = 120;

export const previewOf = (body: string): string => (body.length > PREVIEW_LENGTH ? `${body.slice(0, PREVIEW_LENGTH - 1)}…` : body);

/** An opt-out the person made by texting (STOP on SMS or WhatsApp, or plain words): its source starts with the channel. */
const byTheirReply = (source: string | null) => source !== null && /^(sms|whatsapp)-/.test(source);

export function stateOf(r: Pick<ConversationRecord, "subStatus" | "allOut" | "outSource">): ConversationState {
  const out = r.allOut === 1 || r.subStatus === "unsubscribed";
  if (out) return byTheirReply(r.outSource) ? "optedOutByReply" : "optedOut";
  return r.subStatus === "active" || r.subStatus === "unconfirmed" ? "subscribed" : "notSubscribed";
}

/** The channel an answer goes on: the subscription's, else that of the person's latest reply. */
export const answerChannel = (r: ConversationRecord) => r.subChannel ?? r.lastChannel;

/** When the WhatsApp window closes (ms), or null when it is closed. */
export function windowEndsAt(r: ConversationRecord, now: number): number | null {
  if (r.whatsappAt === null) return null;
  const ends = r.whatsappAt + WHATSAPP_WINDOW_MS;
  return ends > now ? ends : null;
}

export function conversationRow(r: ConversationRecord, now: number): ConversationRow {
  const state = stateOf(r);
  const channel = answerChannel(r);
  const ends = channel === "WhatsApp" ? windowEndsAt(r, now) : null;
  return {
    customerId: r.customerId,
    businessId: r.businessId,
    businessName: r.businessName,
    phone: r.phone,
    channel,
    lastMessageAt: new Date(r.lastMessageAt).toISOString(),
    lastMessagePreview: r.preview,
    unread: r.unread,
    state,
    stateText: CONVERSATION_STATE_TEXTS[state],
    whatsappWindowOpen: ends !== null,
    whatsappWindowEndsAt: ends === null ? null : new Date(ends).toISOString(),
  };
}

const SHOWN_STATUS: Record<string, ThreadStatus> = {
  Queued: "Queued",
  Sending: "Queued",
  Uncertain: "Queued",
  Sent: "Sent",
  Delivered: "Delivered",
};

const OUT_KIND: Record<string, ThreadKind> = { promotion: "broadcast", confirmation: "confirmation", reply: "ownerReply" };

/** The URL a reply's media is served at (to its owner only). */
export const mediaUrl = (id: number | string) => `/api/inbox/Media/${id}`;

export function threadItem(r: ThreadRecord): ThreadItem {
  const at = new Date(r.at).toISOString();
  if (r.direction === "in") {
    return {
      id: `in-${r.id}`,
      direction: "in",
      kind: "reply",
      body: r.body ?? "",
      mediaUrls: r.media ? r.media.split(",").map(mediaUrl) : [],
      imageUrl: null,
      channel: r.channel,
      status: null,
      errorMessage: null,
      at,
    };
  }
  const status = SHOWN_STATUS[r.status ?? ""] ?? "Failed";
  let errorMessage: string | null = null;
  if (r.status === "Skipped") errorMessage = r.errorMessage || NOT_SENT_UNSUBSCRIBED;
  else if (status === "Failed") errorMessage = describeProviderError(r.errorCode, r.errorMessage) ?? "Not delivered";
  return {
    id: `out-${r.id}`,
    direction: "out",
    kind: OUT_KIND[r.kind] ?? "broadcast",
    body: r.body ?? "",
    mediaUrls: [],
    imageUrl: r.imagePath || null,
    channel: r.channel,
    status,
    errorMessage,
    at,
  };
}
