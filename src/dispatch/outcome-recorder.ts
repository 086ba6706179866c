// What the dispatcher does with the provider's answer to one send:
// - sent -> Sent, with the provider's id (and, sent without a status callback, its first look-up: status-poller.ts);
// - rate_limited (429) -> Queued again after Retry-After (or a backoff), and every start waits as long;
// - unavailable (never reached the provider) -> Queued again with backoff, and starts slow down; failed after
//   MAX_ATTEMPTS;
// - uncertain (5xx, timeout: it may have been accepted) -> Uncertain, for the reconciler; never resent blindly;
// - account_problem (a rotated token, a sender that cannot send, no sender...) -> held, the channel paused
//   (channel-gate.ts); nobody is failed for it, and the attempt is not counted;
// - opted_out (Twilio 21610) -> Failed, and the customer is opted out everywhere (onOptedOut); never retried;
// - failed -> Failed with the provider's code and message.
// A write that fails leaves the row Sending: the next start finds it in flight and reconciles it. Except when the
// disk is full (disk-wait.ts): then the answer is kept in memory, in order, and written by flush() once there is
// room, so the broadcast goes on without a restart and nothing is looked up or resent.
import type { Logger } from "../lib/logger.ts";
import type { ChannelGate } from "./channel-gate.ts";
import type { DiskWait } from "./disk-wait.ts";
import type { SendOutcome } from "../messaging/messenger.ts";
import type { Pacer } from "./pacer.ts";
import { backoffMs, MAX_ATTEMPTS } from "./retry-policy.ts";
import { firstStatusCheck } from "./status-checks.ts";
import type { DispatcherStats } from "./stats.ts";
import type { ClaimedDelivery, DispatchStore } from "./store.ts";

/** Longest pause of every start after an unavailable provider. */
const MAX_UNAVAILABLE_PAUSE_MS = 30_000;

export interface OutcomeRecorderDeps {
  store: DispatchStore;
  pacer: Pacer;
  stats: DispatcherStats;
  logger: Logger;
  now(): number;
  reconcileAfterMs: number;
  diskWait: DiskWait;
  gate: ChannelGate;
  onOptedOut?: ((customerId: number, at: Date) => void) | undefined;
}

export class OutcomeRecorder {
  /** Unavailable answers in a row: each one pauses every start a little longer. */
  private unavailableInARow = 0;

  constructor(private readonly deps: OutcomeRecorderDeps) {}

  /** Answers not written yet because the disk was full, oldest first. */
  private readonly unwritten: Array<{ row: ClaimedDelivery; outcome: SendOutcome }> = [];

  /** How many answers wait for room on the disk. */
  get pending(): number {
    return this.unwritten.length;
  }

  record(row: ClaimedDelivery, outcome: SendOutcome): void {
    // While the disk is full, answers queue up behind the ones already waiting (flush() writes them in order).
    if (this.unwritten.length > 0 || this.deps.diskWait.waiting) {
      this.unwritten.push({ row, outcome });
      return;
    }
    if (!this.tryWrite(row, outcome)) this.unwritten.push({ row, outcome });
  }

  /** Writes the answers kept while the disk was full; false when there is still no room (the rest stay kept). */
  flush(): boolean {
    while (this.unwritten.length > 0) {
      const { row, outcome } = this.unwritten[0]!;
      if (!this.tryWrite(row, outcome)) return false;
      this.unwritten.shift();
    }
    return true;
  }

  /** false: no room on the disk (keep the answer); true: written, or failed otherwise (logged; the row stays Sending). */
  private tryWrite(row: ClaimedDelivery, outcome: SendOutcome): boolean {
    try {
      this.write(row, outcome, this.deps.now());
      this.deps.diskWait.succeeded();
    } catch (e) {
      if (this.deps.diskWait.failed(e)) return false;
      this.deps.logger.error(
        `dispatcher: the result of delivery ${row.id} was not recorded (it stays Sending and is checked at the next start): ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    return true;
  }

  private write(row: ClaimedDelivery, outcome: SendOutcome, now: number): void {
    const { store, stats, pacer } = this.deps;
    if (outcome.kind !== "unavailable") this.unavailableInARow = 0;
    if (this.deps.gate.settle(row, outcome, now)) return;
    switch (outcome.kind) {
      case "sent":
        store.recordSent(row.id, outcome.providerId, outcome.status, outcome.providerStatus, now);
        // No status callback will come: the status poller looks the outcome up.
        if (outcome.unwatched) store.watchStatus(row.id, firstStatusCheck(now));
        stats.sent++;
        return;
      case "rate_limited":
        // Everyone waits: the provider said we are going too fast.
        pacer.pause(now + (outcome.retryAfterMs ?? 1000));
        store.requeue(row.id, now + (outcome.retryAfterMs ?? backoffMs(row.attempts)), now, `Rate limited by the provider; retrying: ${outcome.message}`, outcome.code);
        stats.requeued++;
        return;
      case "unavailable":
        this.unavailableInARow++;
        pacer.pause(now + Math.min(MAX_UNAVAILABLE_PAUSE_MS, backoffMs(this.unavailableInARow)));
        if (row.attempts >= MAX_ATTEMPTS) this.fail(row, null, `Gave up after ${row.attempts} attempts: ${outcome.message}`, now);
        else {
          store.requeue(row.id, now + backoffMs(row.attempts), now, outcome.message, null);
          stats.requeued++;
        }
        return;
      case "uncertain":
        store.markUncertain(row.id, Math.max(now, row.claimedAt + this.deps.reconcileAfterMs), now, outcome.message);
        stats.uncertain++;
        return;
      case "opted_out":
        store.markFailed(row.id, outcome.code, outcome.message, now);
        stats.optedOut++;
        this.deps.onOptedOut?.(row.customerId, new Date(now));
        return;
      case "failed":
        this.fail(row, outcome.code, outcome.message, now);
        return;
      case "account_problem":
        return; // settled by the gate above
    }
  }

  private fail(row: ClaimedDelivery, code: number | null, message: string, now: number): void {
    this.deps.store.markFailed(row.id, code, message, now);
    this.deps.stats.failed++;
  }
}
