import { useEffect, useRef } from "react";
import type { ConversationRow } from "../../../../src/schemas/inbox.ts";
import { ListLoadFailed } from "../../../shared/components/ListPage.tsx";
import { Spinner } from "../../../shared/components/Spinner.tsx";
import type { ConversationKey } from "../api.ts";
import { useConversation } from "../useConversation.ts";
import { ConversationStateBadge } from "./ConversationStateBadge.tsx";
import { ReplyBox } from "./ReplyBox.tsx";
import { ThreadMessage } from "./ThreadMessage.tsx";

export const NO_REPLIES_YET = "They have not written to this business.";
export const NO_ANSWER_OPTED_OUT = "They opted out: nothing can be sent to them until they text START.";
export const NO_ANSWER_NOT_SUBSCRIBED = "They do not follow this business: there is no one to answer.";

/** Why the reply box is not there, or null when the person can be answered. */
export function noAnswerReason(c: ConversationRow): string | null {
  if (c.state === "subscribed") return null;
  return c.state === "notSubscribed" ? NO_ANSWER_NOT_SUBSCRIBED : `${c.stateText}. ${NO_ANSWER_OPTED_OUT}`;
}

/**
 * One conversation (a customer with a business): what was sent and what they answered, oldest first, then the reply
 * box, or why there is none. `title`: the inbox heads it with the number and business; the customer's page has both
 * around it already ("none").
 */
export function ConversationThread({ which, title, onRead }: { which: ConversationKey; title: "phone" | "none"; onRead?: (row: ConversationRow) => void }) {
  const { state, append } = useConversation(which, onRead);
  const messages = useRef<HTMLOListElement>(null);
  // The newest message in view: the list scrolls, not the page.
  const count = state.kind === "ok" ? state.data.items.length : 0;
  useEffect(() => {
    const list = messages.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [count]);

  if (state.kind === "loading") return <Spinner label="Loading conversation..." />;
  if (state.kind === "none") return <p className="muted inbox-none">{NO_REPLIES_YET}</p>;
  if (state.kind === "failed") return <ListLoadFailed failure={{ what: "this conversation", retry: state.retry }} />;
  const { conversation, items } = state.data;
  const reason = noAnswerReason(conversation);
  return (
    <section className="inbox-thread" aria-label={`Conversation with ${conversation.phone}, ${conversation.businessName}`}>
      <header className="inbox-thread-head">
        {title === "phone" && (
          <>
            <h2>{conversation.phone}</h2>
            <span className="muted">{conversation.businessName}</span>
          </>
        )}
        <span className={`badge ${conversation.channel === "WhatsApp" ? "badge-whatsapp" : "badge-info"}`}>{conversation.channel}</span>
        <ConversationStateBadge row={conversation} />
      </header>
      <ol ref={messages} className="inbox-msgs" aria-label="Messages">
        {items.map((item) => (
          <ThreadMessage key={item.id} item={item} />
        ))}
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
