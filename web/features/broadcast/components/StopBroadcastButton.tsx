// Stop for a broadcast that is sending (issue 23 item 8): asks first in the app's own dialog, then CancelBroadcast.
// What is not yet handed to Twilio is cancelled; messages already on their way finish and are counted.
import { useState } from "react";
import { ApiError } from "../../../shared/api/client.ts";
import { notify } from "../../../shared/state/toasts.ts";
import { bodyErrorText } from "../api/broadcast-errors.ts";
import { type BroadcastSummary, broadcastApi } from "../api/broadcasts.ts";
import { AskBeforeSending } from "./AskBeforeSending.tsx";

export const BROADCAST_STOPPED = "Broadcast Stopped";
export const STOP_FAILED = "Could not stop the broadcast";

/** The dialog's question: how many are still to go, and that those on their way finish. */
export function stopQuestion(b: Pick<BroadcastSummary, "queued" | "total">): string {
  const left = `${b.queued} of ${b.total} message${b.total === 1 ? "" : "s"}`;
  return `${left} not sent yet will be cancelled. Messages already on their way still arrive. This cannot be undone.`;
}

export function StopBroadcastButton({ b, onStopped }: { b: BroadcastSummary; onStopped: () => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  async function stop() {
    setBusy(true);
    try {
      const res = await broadcastApi.cancel(b.id);
      notify.success(BROADCAST_STOPPED, res?.message ?? BROADCAST_STOPPED);
    } catch (err) {
      const text = err instanceof ApiError ? (bodyErrorText(err.body) ?? "Please try again.") : "Please try again.";
      notify.error(STOP_FAILED, text);
    } finally {
      setBusy(false);
      setAsking(false);
      onStopped();
    }
  }

  return (
    <>
      <button type="button" className="btn btn-danger btn-sm bc-stop" onClick={() => setAsking(true)} disabled={busy}>
        Stop
      </button>
      {asking && (
        <AskBeforeSending
          className="bc-repeat bc-stop-dialog"
          backdropTestId="stop-backdrop"
          title="Stop this broadcast?"
          question={stopQuestion(b)}
          questionTestId="stop-question"
          confirmLabel={busy ? "Stopping..." : "Stop sending"}
          busy={busy}
          onConfirm={() => void stop()}
          onCancel={() => setAsking(false)}
        />
      )}
    </>
  );
}
