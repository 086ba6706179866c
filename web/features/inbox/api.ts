import type { Conversation, ConversationPage, ReplyBody, ReplyResult } from "../../../src/schemas/inbox.ts";
import { api, idParam, listQuery } from "../../shared/api/client.ts";

// Typed wrappers for /api/inbox/* (issue 24); the unread count the nav shows is shared/api/inbox-unread.ts.

/** One conversation: a customer with a business. */
export interface ConversationKey {
  customerId: number;
  businessId: number;
}

export const CONVERSATIONS_PER_PAGE = 30;

export const inboxApi = {
  /** One page of the inbox, unread first then the newest (keyset; `cursor` from the previous page). */
  page: (_filters: Record<string, never>, cursor: string | null) =>
    api.get<ConversationPage>(`/api/inbox/ListConversations?${listQuery({ limit: CONVERSATIONS_PER_PAGE }, cursor)}`),
  /** The thread, oldest first; reading it marks its replies read. */
  get: ({ customerId, businessId }: ConversationKey) =>
    api.get<Conversation>(`/api/inbox/GetConversation?customerId=${idParam(customerId)}&businessId=${idParam(businessId)}`),
  reply: (body: ReplyBody) => api.post<ReplyResult>("/api/inbox/Reply", body),
};
