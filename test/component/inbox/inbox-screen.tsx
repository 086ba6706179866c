// The inbox's component tests share these: the routes the screens call, a conversation row and thread as the server
// answers them, and the Inbox on a memory router with the toasts.
import type { Conversation, ConversationRow, ThreadItem } from "../../../src/schemas/inbox.ts";
import { Toasts } from "../../../web/shared/components/Toasts.tsx";
import { InboxPage } from "../../../web/features/inbox/index.ts";
import { renderAt, settle } from "../render-at.tsx";

export const LIST = "GET /api/inbox/ListConversations";
export const GET = "GET /api/inbox/GetConversation";
export const REPLY = "POST /api/inbox/Reply";
export const UNREAD = "GET /api/inbox/UnreadCount";
export const TEMPLATES = "GET /api/business/WhatsAppTemplates";

export function row(over: Partial<ConversationRow> = {}): ConversationRow {
  return {
    customerId: 7,
    businessId: 3,
    businessName: "Rosa's Corner Bakery",
    phone: "+14155550123",
    channel: "SMS",
    lastMessageAt: "2026-11-26T15:04:00.000Z",
    lastMessagePreview: "Do you have rye today?",
    unread: 0,
    state: "subscribed",
    stateText: "Subscribed",
    whatsappWindowOpen: false,
    whatsappWindowEndsAt: null,
    ...over,
  };
}

export function item(over: Partial<ThreadItem> = {}): ThreadItem {
  return {
    id: "in-1",
    direction: "in",
    kind: "reply",
    body: "Do you have rye today?",
    mediaUrls: [],
    imageUrl: null,
    channel: "SMS",
    status: null,
    errorMessage: null,
    at: "2026-11-26T15:04:00.000Z",
    ...over,
  };
}

export const sentBroadcast = item({ id: "out-1", direction: "out", kind: "broadcast", body: "Fresh rye out of the oven at 7!", status: "Delivered", at: "2026-11-26T12:00:00.000Z" });

export const thread = (conversation: ConversationRow, items: ThreadItem[] = [sentBroadcast, item()]): Conversation => ({ conversation, items });

/** The Inbox at `path` (e.g. "/inbox?customer=7&business=3"), with the toasts. */
export async function openInbox(path = "/inbox") {
  const view = renderAt(path, { "/inbox": <InboxPage /> }, <Toasts />);
  await settle();
  return view;
}
