import type { ThreadItem, ThreadKind } from "../../../../src/schemas/inbox.ts";
import { MessageImage } from "../../../shared/components/MessageImage.tsx";
import { formatDateTime, MESSAGE_STATUS_BADGE } from "../../../shared/format.ts";
import { ReplyMedia } from "./ReplyMedia.tsx";

/** What each kind of message is called above its text. */
export const THREAD_KIND_LABELS: Record<ThreadKind, string> = {
  reply: "Their reply",
  broadcast: "Broadcast",
  confirmation: "Confirmation",
  ownerReply: "Your reply",
};

/** One message of a conversation: theirs on the left, the business's on the right with its status. */
export function ThreadMessage({ item }: { item: ThreadItem }) {
  const mine = item.direction === "out";
  return (
    <li className={`inbox-msg ${mine ? "inbox-msg-out" : "inbox-msg-in"}`} data-kind={item.kind}>
      <div className="inbox-msg-meta">
        <span className="inbox-msg-kind">{THREAD_KIND_LABELS[item.kind]}</span>
        {item.channel === "WhatsApp" && <span className="badge badge-whatsapp">WhatsApp</span>}
        {item.status && <span className={`badge ${MESSAGE_STATUS_BADGE[item.status] ?? "badge-muted"}`}>{item.status}</span>}
        <time dateTime={item.at}>{formatDateTime(item.at)}</time>
      </div>
      {item.body && <p className="inbox-msg-body">{item.body}</p>}
      {item.imageUrl && <MessageImage url={item.imageUrl} />}
      {item.mediaUrls.map((url) => (
        <ReplyMedia key={url} url={url} />
      ))}
      {item.errorMessage && (
        <p className="msg-error">
          <strong className="msg-error-label">Error:</strong> {item.errorMessage}
        </p>
      )}
    </li>
  );
}
