import { useId, useRef } from "react";
import { formatDateTime, MESSAGE_STATUS_BADGE } from "../../../shared/format.ts";
import { type CustomerMessage, customerMessagesApi } from "../api/customer-messages.ts";
import { MessageImage } from "../../../shared/components/MessageImage.tsx";
import { Dialog } from "../../../shared/components/Dialog.tsx";
import { LoadMore } from "../../../shared/components/LoadMore.tsx";
import { Spinner } from "../../../shared/components/Spinner.tsx";
import { usePagedList } from "../../../shared/components/usePagedList.ts";
import "../../../shared/styles/broadcast.css";
import { CustomerConversations } from "../../inbox/index.ts";

export const MESSAGES_LOAD_FAILED = "Failed to load customer messages. Please try again.";
export const NO_MESSAGES_TITLE = "No Messages Found";
export const NO_MESSAGES_TEXT = "This customer hasn't received any messages yet.";
export const MORE_MESSAGES_FAILED = "Could not load more messages.";
const MESSAGE_NOUNS = ["message", "messages"] as const;


function MessageItem({ m }: { m: CustomerMessage }) {
  const when = formatDateTime(m.sentAt);
  return (
    <li className="msg-item">
      <div className="msg-head">
        <strong className="msg-business">{m.businessName}</strong>
        <span className={`badge ${MESSAGE_STATUS_BADGE[m.status] ?? "badge-muted"} msg-status`}>{m.status}</span>
      </div>
      <div className="msg-meta">
        <span className={`msg-type msg-type-${String(m.messageType).toLowerCase()}`}>{m.messageType}</span>
        {m.kind === "Confirmation" && <span className="msg-type msg-type-confirmation">Confirmation</span>}
        <span aria-hidden="true">·</span>
        {when ? (
          <time className="msg-date" dateTime={m.sentAt ?? undefined}>
            {when}
          </time>
        ) : (
          <span className="msg-date msg-date-pending">Not sent yet</span>
        )}
      </div>
      <p className="msg-text">{m.messageText}</p>
      {m.imageUrl && <MessageImage url={m.imageUrl} />}
      {m.errorMessage && (
        <p className="msg-error">
          <strong className="msg-error-label">Error:</strong> {m.errorMessage}
        </p>
      )}
    </li>
  );
}

/** The messages sent to one customer, newest first, a page at a time. `customerName` (the phone number) labels it. */
export function CustomerMessagesModal({
  customerId,
  customerName,
  businesses = [],
  onClose,
}: {
  customerId: number | string;
  customerName: string;
  /** The viewer's businesses the person follows (or followed): a conversation with each, above what was sent. */
  businesses?: { id: number; name: string }[];
  onClose: () => void;
}) {
  const titleId = useId();
  const subtitleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const list = usePagedList(customerMessagesApi.page, { customerId }, "customer messages");
  const { items: messages, loading, failure } = list;

  return (
    <Dialog
      className="msg-modal"
      labelledBy={titleId}
      describedBy={subtitleId}
      initialFocus={closeRef}
      onClose={onClose}
      backdropTestId="messages-backdrop"
    >
      <header className="msg-modal-header">
        <div>
          <h2 id={titleId}>Customer Messages</h2>
          <p id={subtitleId} className="msg-modal-customer">
            {customerName}
          </p>
        </div>
        <button ref={closeRef} type="button" className="modal-close msg-modal-x" aria-label="Close dialog" onClick={onClose}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
          </svg>
        </button>
      </header>

      <div className="msg-modal-body">
        <CustomerConversations customerId={Number(customerId)} businesses={businesses} />
        {loading && <Spinner label="Loading messages..." />}
        {failure && (
          <div className="msg-modal-error">
            <div className="alert alert-error" role="alert">
              {MESSAGES_LOAD_FAILED}
            </div>
            <button type="button" className="btn btn-secondary btn-sm" onClick={failure.retry}>
              Try again
            </button>
          </div>
        )}
        {!loading && !failure && messages.length === 0 && (
          <div className="msg-empty">
            <span className="msg-empty-icon" aria-hidden="true">
              <svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
                <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />
              </svg>
            </span>
            <h3>{NO_MESSAGES_TITLE}</h3>
            <p>{NO_MESSAGES_TEXT}</p>
          </div>
        )}
        {!loading && !failure && messages.length > 0 && (
          <>
            <div className="msg-summary">
              <h3>{list.total} message(s) found</h3>
              <span className="msg-sorted">Sorted by most recent</span>
            </div>
            <ul className="msg-list" aria-label="Messages" tabIndex={0}>
              {messages.map((m, i) => (
                <MessageItem key={i} m={m} />
              ))}
            </ul>
            <LoadMore list={list} noun={MESSAGE_NOUNS} failedText={MORE_MESSAGES_FAILED} className="msg-more" />
          </>
        )}
      </div>

      <footer className="msg-modal-footer">
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Close
        </button>
      </footer>
    </Dialog>
  );
}
