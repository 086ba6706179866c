import { type ReactNode, useId, useRef } from "react";
import { Dialog } from "../../../shared/components/Dialog.tsx";

/** What the owner's answer does: go ahead, or keep the message on the screen, unsent. */
export interface Answers {
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The frame of the questions asked before a broadcast goes out (send it? send it again?): a title, the question,
 * what else to know, then Cancel and the go-ahead. Cancel has the focus first, so Enter never sends by accident;
 * Escape or a click outside cancel too. `busy` disables both buttons while the answer is being acted on.
 */
export function AskBeforeSending({
  className,
  backdropTestId,
  title,
  question,
  questionTestId,
  children,
  confirmLabel,
  busy = false,
  onConfirm,
  onCancel,
}: {
  className: string;
  backdropTestId: string;
  title: string;
  question: string;
  questionTestId?: string;
  children?: ReactNode;
  confirmLabel: string;
  busy?: boolean;
} & Answers) {
  const titleId = useId();
  const textId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog className={className} labelledBy={titleId} describedBy={textId} initialFocus={cancelRef} onClose={onCancel} backdropTestId={backdropTestId}>
      <h2 id={titleId} className="bc-repeat-title">
        {title}
      </h2>
      <p id={textId} className="bc-repeat-text" data-testid={questionTestId}>
        {question}
      </p>
      {children}
      <div className="form-actions bc-repeat-actions">
        <button ref={cancelRef} type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
