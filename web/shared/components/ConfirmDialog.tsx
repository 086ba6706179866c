import { type ReactNode, useId, useRef, useState } from "react";
import { Dialog } from "./Dialog.tsx";
import "../styles/confirm-dialog.css";

/**
 * The app's own yes/no question (never the browser's confirm(), which a phone shows as a bare system box): a title,
 * what will happen, then the safe answer (focused first, so Enter never does the risky thing) and the go-ahead.
 * With `typeToConfirm`, the go-ahead stays disabled until that exact text is typed (for what cannot be undone and
 * touches many people). Escape or a click outside is the safe answer.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel = "Cancel",
  danger = false,
  typeToConfirm,
  busy = false,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  typeToConfirm?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const textId = useId();
  const inputId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [typed, setTyped] = useState("");
  const matches = typeToConfirm === undefined || typed.trim() === typeToConfirm.trim();
  return (
    <Dialog className="confirm-dialog" labelledBy={titleId} describedBy={textId} initialFocus={cancelRef} onClose={onCancel}>
      <h2 id={titleId} className="confirm-dialog-title">
        {title}
      </h2>
      <div id={textId} className="confirm-dialog-text">
        {children}
      </div>
      {typeToConfirm !== undefined && (
        <div className="field confirm-dialog-type">
          <label htmlFor={inputId}>
            Type <strong>{typeToConfirm}</strong> to confirm
          </label>
          <input id={inputId} className="input" value={typed} autoComplete="off" onChange={(e) => setTyped(e.currentTarget.value)} />
        </div>
      )}
      <div className="form-actions confirm-dialog-actions">
        <button ref={cancelRef} type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
        <button type="button" className={`btn ${danger ? "btn-danger" : "btn-primary"}`} onClick={onConfirm} disabled={busy || !matches} aria-busy={busy}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
