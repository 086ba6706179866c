import type { UnreadCount } from "../../../src/schemas/inbox.ts";
import { api } from "./client.ts";

// The nav's badge reads it on every screen; the inbox reads it again once a conversation is opened (and so read).
export const inboxUnreadApi = {
  count: () => api.get<UnreadCount>("/api/inbox/UnreadCount"),
};
