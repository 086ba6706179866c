import { useState } from "react";
import { queueLine } from "../../../../src/schemas/broadcast-queue.ts";
import { absoluteImageUrl, formatDateTime } from "../../../shared/format.ts";
import type { BroadcastSummary } from "../api/broadcasts.ts";

// One sent (or sending) broadcast in the history: when, its image and text, its status and progress, Retry failed.

/** Still sending: some deliveries are queued. */
export const isUnfinished = (b: BroadcastSummary) => b.queued > 0;

/** Share of the deliveries that are no longer queued, 0..1 (1 for a broadcast without recipients). */
export function progressOf(b: BroadcastSummary): number {
  if (b.total <= 0) return 1;
  return Math.min(1, (b.sent + b.delivered + b.failed) / b.total);
}

/** The four counts under a broadcast, in the order a message moves through them. */
const COUNTS = [
  ["Queued", "queued"],
  ["Sent", "sent"],
  ["Delivered", "delivered"],
  ["Failed", "failed"],
] as const satisfies readonly (readonly [string, keyof BroadcastSummary])[];

const pct = (n: number, total: number) => (total > 0 ? `${(n / total) * 100}%` : "0%");

function StatusBadge({ b }: { b: BroadcastSummary }) {
  if (isUnfinished(b))
    return (
      <span className="badge badge-info bc-status">
        <span className="bc-live-dot" aria-hidden="true" />
        Sending
      </span>
    );
  if (b.total === 0) return <span className="badge badge-muted bc-status">No recipients</span>;
  if (b.failed > 0) return <span className="badge badge-danger bc-status">Completed with failures</span>;
  return <span className="badge badge-success bc-status">Completed</span>;
}

/** "3 waiting for quiet hours / 1 waiting for the daily limit": queued deliveries held back (never dropped). */
function waitingLine(b: BroadcastSummary): string {
  const w = b.waiting;
  if (!w || b.completedAt) return "";
  return [w.quietHours > 0 && `${w.quietHours} waiting for quiet hours`, w.dailyLimit > 0 && `${w.dailyLimit} waiting for the daily limit`].filter(Boolean).join(" / ");
}

export function HistoryRow({ b, retrying, onRetry }: { b: BroadcastSummary; retrying: boolean; onRetry: () => void }) {
  const done = b.sent + b.delivered + b.failed;
  const [broken, setBroken] = useState(false);
  return (
    <li className="bc-history-item" data-testid={`broadcast-${b.id}`}>
      <div className="bc-history-head">
        <time dateTime={b.createdAt} className="bc-history-date">
          {formatDateTime(b.createdAt)}
        </time>
        <StatusBadge b={b} />
      </div>
      <div className="bc-history-body">
        {b.imagePath && !broken && (
          <img className="bc-history-thumb" src={absoluteImageUrl(b.imagePath)} alt="" onError={() => setBroken(true)} />
        )}
        <p className="bc-history-text">{b.messageText}</p>
      </div>
      <div
        className="bc-progress"
        role="progressbar"
        aria-label="Delivery progress"
        aria-valuemin={0}
        aria-valuemax={Math.max(b.total, 1)}
        aria-valuenow={b.total > 0 ? done : 1}
        aria-valuetext={`${done} of ${b.total} processed`}
        data-progress={Math.round(progressOf(b) * 100)}
      >
        <span className="bc-progress-delivered" style={{ width: pct(b.delivered, b.total) }} />
        <span className="bc-progress-sent" style={{ width: pct(b.sent, b.total) }} />
        <span className="bc-progress-failed" style={{ width: pct(b.failed, b.total) }} />
      </div>
      {waitingLine(b) && <p className="bc-waiting muted" data-testid="bc-waiting">{waitingLine(b)}</p>}
      {queueLine(b) && <p className="bc-queue muted" data-testid="bc-queue">{queueLine(b)}</p>}
      <div className="bc-history-foot">
        <dl className="bc-counts">
          {COUNTS.map(([label, key]) => (
            <div key={key} className={`bc-count bc-count-${key}`}>
              <dt>{label}</dt>
              <dd>{b[key]}</dd>
            </div>
          ))}
        </dl>
        <div className="bc-history-side">
          <span className="bc-history-total">
            {done} of {b.total} processed
            {b.completedAt && !isUnfinished(b) ? ` · finished ${formatDateTime(b.completedAt)}` : ""}
          </span>
          {b.failed > 0 && (
            <button type="button" className="btn btn-danger btn-sm bc-retry" onClick={onRetry} disabled={retrying} aria-busy={retrying}>
              {retrying && <span className="spinner bc-spinner-dark" aria-hidden="true" />}
              {retrying ? "Retrying..." : "Retry failed"}
            </button>
          )}
        </div>
      </div>
    </li>
  );
}
