import { useState } from "react";
import { Link } from "wouter";
import { EXPIRED_BEFORE_QUIET_HOURS } from "../../../../src/schemas/broadcasts.ts";
import { queueLine } from "../../../../src/schemas/broadcast-queue.ts";
import { absoluteImageUrl, formatDateTime } from "../../../shared/format.ts";
import { paths } from "../../../shared/paths.ts";
import type { BroadcastSummary } from "../api/broadcasts.ts";
import "../../../shared/styles/broadcast-counts.css";
import { StopBroadcastButton } from "./StopBroadcastButton.tsx";

// One sent (or sending) broadcast in the history: when, its image and text, its status and progress, Retry failed.

/** Still sending: some deliveries are queued. */
export const isUnfinished = (b: BroadcastSummary) => b.queued > 0;

/** Deliveries no longer queued: sent, delivered, failed, skipped (never sent) or cancelled (the broadcast stopped). */
export const processedOf = (b: BroadcastSummary) => b.sent + b.delivered + b.failed + b.skipped + b.expired + b.cancelled;

/** Share of the deliveries that are no longer queued, 0..1 (1 for a broadcast without recipients). */
export function progressOf(b: BroadcastSummary): number {
  if (b.total <= 0) return 1;
  return Math.min(1, processedOf(b) / b.total);
}

/** The counts under a broadcast, in the order a message moves through them; Skipped is never Failed (issue 23),
 * and Cancelled shows once the broadcast was stopped. */
const COUNTS = [
  ["Queued", "queued"],
  ["Sent", "sent"],
  ["Delivered", "delivered"],
  ["Failed", "failed"],
  ["Skipped", "skipped"],
  ["Cancelled", "cancelled"],
] as const satisfies readonly (readonly [string, keyof BroadcastSummary])[];

const countsOf = (b: BroadcastSummary) => COUNTS.filter(([, key]) => key !== "cancelled" || b.cancelled > 0);

const pct = (n: number, total: number) => (total > 0 ? `${(n / total) * 100}%` : "0%");

function StatusBadge({ b }: { b: BroadcastSummary }) {
  if (b.state === "cancelled") return <span className="badge badge-muted bc-status">{isUnfinished(b) ? "Stopping" : "Stopped"}</span>;
  // An account problem holds its messages back (issue 23): nobody failed, they go once the admin fixes it.
  if (b.paused && isUnfinished(b)) return <span className="badge badge-warning bc-status">Paused</span>;
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

/** "Held until 8:00 recipients' time (3 messages) / 1 waiting for the daily limit": queued deliveries held back
 * (never dropped), with when quiet hours let them go on the recipients' clocks. */
function waitingLine(b: BroadcastSummary): string {
  const w = b.waiting;
  if (!w || b.completedAt) return "";
  const n = `${w.quietHours} message${w.quietHours === 1 ? "" : "s"}`;
  const held = w.quietHoursUntil ? `Held until ${w.quietHoursUntil} recipients' time (${n})` : `${n} held for quiet hours`;
  return [w.quietHours > 0 && held, w.dailyLimit > 0 && `${w.dailyLimit} waiting for the daily limit`].filter(Boolean).join(" / ");
}

/** What Retry does for this broadcast: failures first; with only expired ones, it sends them in the next window. */
const retryLabel = (b: BroadcastSummary) => (b.retryable > b.expired ? "Retry failed" : "Send in the next window");

/** "2 expired before quiet hours: Twilio could not deliver them before the recipients' evening. Send in the next window sends them in their next window." */
function expiredLine(b: BroadcastSummary): string {
  const them = b.expired === 1 ? "it" : "them";
  return `${b.expired} ${EXPIRED_BEFORE_QUIET_HOURS.toLowerCase()}: Twilio could not deliver ${them} before the recipients' evening. ${retryLabel(b)} sends ${them} in their next window.`;
}

export function HistoryRow({ b, retrying, onRetry, onChanged }: { b: BroadcastSummary; retrying: boolean; onRetry: () => void; onChanged: () => void }) {
  const done = processedOf(b);
  const counts = countsOf(b);
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
        <span className="bc-progress-skipped" style={{ width: pct(b.skipped + b.cancelled, b.total) }} />
      </div>
      {b.paused && isUnfinished(b) && (
        <p className="bc-paused" role="status" data-testid="bc-paused">
          {b.paused}. The messages wait and go once it is fixed; nobody is marked failed.
        </p>
      )}
      {waitingLine(b) && <p className="bc-waiting muted" data-testid="bc-waiting">{waitingLine(b)}</p>}
      {b.expired > 0 && <p className="bc-waiting muted" data-testid="bc-expired">{expiredLine(b)}</p>}
      {queueLine(b) && <p className="bc-queue muted" data-testid="bc-queue">{queueLine(b)}</p>}
      <div className="bc-history-foot">
        <dl className="bc-counts" data-columns={counts.length + (b.expired > 0 ? 1 : 0)}>
          {counts.map(([label, key]) => (
            <div key={key} className={`bc-count bc-count-${key}`}>
              <dt>{label}</dt>
              <dd>{b[key]}</dd>
            </div>
          ))}
          {b.expired > 0 && (
            <div className="bc-count bc-count-expired" title={EXPIRED_BEFORE_QUIET_HOURS}>
              <dt>Expired</dt>
              <dd>{b.expired}</dd>
            </div>
          )}
        </dl>
        <div className="bc-history-side">
          <span className="bc-history-total">
            {done} of {b.total} processed
            {b.completedAt && !isUnfinished(b) ? ` · finished ${formatDateTime(b.completedAt)}` : ""}
          </span>
          <Link href={paths.broadcastResults(b.id)} className="btn btn-secondary btn-sm bc-results" aria-label={`Results of the broadcast of ${formatDateTime(b.createdAt)}`}>
            Results
          </Link>
          {b.state === "sending" && isUnfinished(b) && <StopBroadcastButton b={b} onStopped={onChanged} />}
          {b.retryable > 0 && (
            <button type="button" className="btn btn-danger btn-sm bc-retry" onClick={onRetry} disabled={retrying} aria-busy={retrying}>
              {retrying && <span className="spinner bc-spinner-dark" aria-hidden="true" />}
              {retrying ? "Retrying..." : retryLabel(b)}
            </button>
          )}
        </div>
      </div>
    </li>
  );
}
