import { useCallback, useEffect, useRef, useState } from "react";
import type { Conversation, ConversationRow, ThreadItem } from "../../../../src/schemas/inbox.ts";
import { ApiError } from "../../../shared/api/client.ts";
import { Spinner } from "../../../shared/components/Spinner.tsx";
import { refreshUnread } from "../../../shared/state/inbox-unread.ts";
import { type ConversationKey, inboxApi } from "../api.ts";
import { ConversationStateBadge } from "./ConversationStateBadge.tsx";
import { ReplyBox } from "./ReplyBox.tsx";
import { ThreadMessage } from "./ThreadMessage.tsx";

export const THREAD_LOAD_FAILED = "Could not load this conversation.";
export const NO_REPLIES_YET = "They have not written to this business.";
export const NO_ANSWER_OPTED_OUT = "They opted out: nothing can be sent to them until they text START.";
export const NO_ANSWER_NOT_SUBSCRIBED = "They do not follow this business: there is no one to answer.";

/** Why the reply box is not there, or null when the person can be answered. */
export function noAnswerReason(c: ConversationRow): string | null {
  if (c.state === "subscribed") return null;
  return c.state === "notSubscribed" ? NO_ANSWER_NOT_SUBSCRIBED : `${c.stateText}. ${NO_ANSWER_OPTED_OUT}`;
}

type Loaded = { kind: "loading" } | { kind: "failed"; retry: () => void } | { kind: "none" } | { kind: "ok"; data: Conversation };

/**
 * One conversation (a customer with a business): what was sent and what they answered, oldest first, then the reply
 * box. Opening it reads its replies, so the nav's count is read again and `onRead` hears the conversation as it now is.
 * `title` heads it (the inbox names the number, the customer's page the business).
 */
export function ConversationThread({ which, title, onRead }: { which: ConversationKey; title: "phone" | "business"; onRead?: (row: ConversationRow) => void }) {
  const [state, setState] = useState<Loaded>({ kind: "loading" });
  const end = useRef<HTMLLIElement>(null);
  const onReadRef = useRef(onRead);
  onReadRef.current = onRead;
  const { customerId, businessId } = which;

  const load = useCallback(() => {
    let live = true;
    setState({ kind: "loading" });
    inboxApi.get({ customerId, businessId }).then(
      (data) => {
        if (!live) return;
        setState({ kind: "ok", data });
        onReadRef.current?.(data.conversation);
        void refreshUnread();
      },
      (err) => {
        if (!live) return;
        if (err instanceof ApiError && err.status === 404) return setState({ kind: "none" });
        console.error("Error loading the conversation:", err);
        setState({ kind: "failed", retry: load });
      },
    );
    return () => {
      live = false;
    };
  }, [customerId, businessId]);
  useEffect(load, [load]);

  const count = state.kind === "ok" ? state.data.items.length : 0;
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "nearest" });
  }, [count]);

  if (state.kind === "loading") return <Spinner label="Loading conversation..." />;
  if (state.kind === "none") return <p className="muted inbox-none">{NO_REPLIES_YET}</p>;
  if (state.kind === "failed") {
    return (
      <div className="inbox-failed">
        <p className="alert alert-error" role="alert">
          {THREAD_LOAD_FAILED}
        </p>
        <button type="button" className="btn btn-secondary btn-sm" onClick={state.retry}>
          Try again
        </button>
      </div>
    );
  }
  const { conversation, items } = state.data;
  const reason = noAnswerReason(conversation);
  const append = (item: ThreadItem) => setState({ kind: "ok", data: { conversation, items: [...items, item] } });
  return (
    <section className="inbox-thread" aria-label={`Conversation with ${conversation.phone}, ${conversation.businessName}`}>
      <header className="inbox-thread-head">
        <h2>{title === "phone" ? conversation.phone : conversation.businessName}</h2>
        <span className="muted">{title === "phone" ? conversation.businessName : conversation.phone}</span>
        <span className={`badge ${conversation.channel === "WhatsApp" ? "badge-whatsapp" : "badge-info"}`}>{conversation.channel}</span>
        <ConversationStateBadge row={conversation} />
      </header>
      <ol className="inbox-msgs" aria-label="Messages">
        {items.map((item) => (
          <ThreadMessage key={item.id} item={item} />
        ))}
        <li ref={end} className="inbox-msgs-end" aria-hidden="true" />
      </ol>
      {reason ? (
        <p className="alert alert-info inbox-no-answer" role="status">
          {reason}
        </p>
      ) : (
        <ReplyBox conversation={conversation} onSent={append} />
      )}
    </section>
  );
}
