import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useSearch } from "wouter";
import type { ConversationRow } from "../../../src/schemas/inbox.ts";
import { ListPage } from "../../shared/components/ListPage.tsx";
import { LoadMore } from "../../shared/components/LoadMore.tsx";
import { Spinner } from "../../shared/components/Spinner.tsx";
import { usePagedList } from "../../shared/components/usePagedList.ts";
import { paths } from "../../shared/paths.ts";
import { unreadConversations } from "../../shared/state/inbox-unread.ts";
import "../../shared/styles/inbox.css";
import { type ConversationKey, inboxApi } from "./api.ts";
import { ConversationList } from "./components/ConversationList.tsx";
import { ConversationThread } from "./components/ConversationThread.tsx";

export const INBOX_SUBTITLE = "What your customers texted back, unread first.";
export const NO_CONVERSATIONS = "No replies yet. When a customer texts back, the conversation shows here.";
export const PICK_CONVERSATION = "Choose a conversation to read it and answer.";
export const MORE_CONVERSATIONS_FAILED = "Could not load more conversations.";
const CONVERSATION_NOUNS = ["conversation", "conversations"] as const;
const NO_FILTERS = {};

/** The conversation the address names (?customer=&business=), or null. */
function openFrom(search: string): ConversationKey | null {
  const q = new URLSearchParams(search);
  const customerId = Number(q.get("customer"));
  const businessId = Number(q.get("business"));
  return Number.isSafeInteger(customerId) && customerId > 0 && Number.isSafeInteger(businessId) && businessId > 0 ? { customerId, businessId } : null;
}

/**
 * The Inbox: the conversations beside the open one on a desktop; on a phone the list, then the conversation alone
 * with a way back. The open conversation is in the address, so Back returns to the list.
 */
export function InboxPage() {
  useSignals();
  const open = openFrom(useSearch());
  const list = usePagedList(inboxApi.page, NO_FILTERS, "conversations");
  // The nav's count moved (a new reply came, or one was read): the list is read again, without a spinner.
  const unread = unreadConversations.value;
  const seen = useRef(unread);
  const { reload } = list;
  useEffect(() => {
    if (seen.current === unread) return;
    seen.current = unread;
    void reload();
  }, [unread, reload]);
  const [readNow, setReadNow] = useState<Record<string, ConversationRow>>({});
  // Opening a conversation reads it: its row loses its count at once, without reading the list again.
  const onRead = useCallback((row: ConversationRow) => setReadNow((seen) => ({ ...seen, [`${row.customerId}-${row.businessId}`]: row })), []);
  const rows = list.items.map((r) => readNow[`${r.customerId}-${r.businessId}`] ?? r);

  return (
    <ListPage failure={list.failure} className={`inbox-page${open ? " has-open" : ""}`} title="Inbox" subtitle={INBOX_SUBTITLE} action={null}>
      {list.loading ? (
        <Spinner label="Loading conversations..." />
      ) : rows.length === 0 ? (
        <div className="card empty-state">
          <p>{NO_CONVERSATIONS}</p>
        </div>
      ) : (
        <div className="inbox-layout">
          <div className="inbox-side">
            <ConversationList rows={rows} open={open} />
            <LoadMore list={list} noun={CONVERSATION_NOUNS} failedText={MORE_CONVERSATIONS_FAILED} />
          </div>
          <div className="inbox-main card">
            {open ? (
              <>
                <Link href={paths.inbox()} className="inbox-back btn btn-ghost btn-sm">
                  ← All conversations
                </Link>
                <ConversationThread key={`${open.customerId}-${open.businessId}`} which={open} title="phone" onRead={onRead} />
              </>
            ) : (
              <p className="muted inbox-pick">{PICK_CONVERSATION}</p>
            )}
          </div>
        </div>
      )}
    </ListPage>
  );
}
