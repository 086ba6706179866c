// A scheduled broadcast in the history: when it goes, its text, and Edit / Cancel until it starts; a cancelled one
// shows as Cancelled. Editing changes the text and the time (UpdateScheduledBroadcast); the server answers 409 once
// the dispatcher has started it, and that sentence is shown.
import { useState } from "react";
import { bodyErrorText } from "../api/broadcast-errors.ts";
import { formatDateTime } from "../../../shared/format.ts";
import { type BroadcastSummary, broadcastApi } from "../api/broadcasts.ts";
import { ApiError } from "../../../shared/api/client.ts";
import { notify } from "../../../shared/state/toasts.ts";
import { formatWhen, SendLaterField, sendLaterError, sendLaterIso, toLocalInput } from "./SendLaterField.tsx";

export const BROADCAST_CANCELLED = "Broadcast Cancelled";
export const BROADCAST_UPDATED = "Broadcast Updated";
const CHANGE_FAILED = "Could not change the broadcast";

function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 0) return "Cannot reach the server. Check your connection and try again.";
    return bodyErrorText(err.body) ?? "Please try again.";
  }
  return "Please try again.";
}

export function ScheduledBroadcastRow({ b, onChanged }: { b: BroadcastSummary; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(b.messageText);
  const [at, setAt] = useState(b.scheduledFor ? toLocalInput(new Date(b.scheduledFor)) : "");
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const cancelled = b.state === "cancelled";

  async function run(what: () => Promise<{ message?: string } | undefined>, title: string) {
    setBusy(true);
    try {
      const res = await what();
      notify.success(title, res?.message ?? title);
      setEditing(false);
      onChanged();
    } catch (err) {
      notify.error(CHANGE_FAILED, errorText(err));
      onChanged(); // e.g. it started meanwhile: show it as it is now
    } finally {
      setBusy(false);
    }
  }

  function save() {
    setTried(true);
    if (!text.trim() || sendLaterError(at)) return;
    const iso = sendLaterIso(at)!;
    void run(() => broadcastApi.updateScheduled(b.id, { messageText: text.trim(), scheduledFor: iso }), BROADCAST_UPDATED);
  }

  return (
    <li className={`bc-history-item${cancelled ? " is-cancelled" : ""}`} data-testid={`broadcast-${b.id}`}>
      <div className="bc-history-head">
        <span className="bc-history-when">
          {cancelled ? "Was scheduled for " : "Goes out "}
          {b.scheduledFor && <time dateTime={b.scheduledFor}>{formatWhen(b.scheduledFor)}</time>}
        </span>
        {cancelled ? (
          <span className="badge badge-muted bc-status">Cancelled</span>
        ) : (
          <span className="badge badge-warning bc-status">Scheduled</span>
        )}
      </div>
      {editing ? (
        <div className="bc-edit">
          <div className={`field${tried && !text.trim() ? " has-error" : ""}`}>
            <label htmlFor={`bc-edit-text-${b.id}`}>Message</label>
            <textarea id={`bc-edit-text-${b.id}`} className="input" value={text} disabled={busy} onChange={(e) => setText(e.currentTarget.value)} />
          </div>
          <SendLaterField enabled value={at} error={tried ? sendLaterError(at) : null} disabled={busy} onToggle={() => {}} onChange={setAt} />
        </div>
      ) : (
        <div className="bc-history-body">
          <p className="bc-history-text">{b.messageText}</p>
        </div>
      )}
      <div className="bc-history-foot">
        <span className="bc-history-total">
          {cancelled ? `Cancelled ${formatDateTime(b.cancelledAt)}` : "Recipients are decided when it goes out"}
        </span>
        {!cancelled && (
          <div className="bc-history-actions">
            {editing ? (
              <>
                <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => setEditing(false)}>
                  Discard
                </button>
                <button type="button" className="btn btn-primary btn-sm" disabled={busy} onClick={save}>
                  Save
                </button>
              </>
            ) : (
              <>
                <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => setEditing(true)}>
                  Edit
                </button>
                <button
                  type="button"
                  className="btn btn-danger btn-sm"
                  aria-label="Cancel scheduled broadcast"
                  disabled={busy}
                  onClick={() => void run(() => broadcastApi.cancel(b.id), BROADCAST_CANCELLED)}
                >
                  Cancel
                </button>
              </>
            )}
          </div>
        )}
      </div>
    </li>
  );
}
