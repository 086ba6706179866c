// Starts scheduled broadcasts when their time comes (issue 11 item 5), and writes the deliveries of every broadcast
// still being enqueued (a scheduled one just started, or a publish a crash cut short), a chunk per transaction for
// at most ENQUEUE_BUDGET_MS per call, so the loop (and, in `serve`, the HTTP server) is never held for long. The send
// loop calls startDue() with its housekeeping (every second, and whenever it wakes from idle); nextDueAt() includes
// the next scheduled time, so an idle loop wakes for it. Everything is in the database, so a restart (kill -9
// included) simply goes on with what is due.
import type { Logger } from "../lib/logger.ts";
import type { DiskWait } from "./disk-wait.ts";
import type { DispatchStore } from "./store.ts";

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** How long one housekeeping may spend writing deliveries: a chunk (ENQUEUE_CHUNK, some 15 ms here) and, if it was
 * quick, another; the rest waits for the next turn. */
export const ENQUEUE_BUDGET_MS = 10;

export class BroadcastStarter {
  constructor(private readonly deps: { store: DispatchStore; logger: Logger; diskWait: DiskWait }) {}

  /** Answers whether deliveries are still to be written (then the loop comes back soon rather than idling). */
  startDue(now: number): boolean {
    const { store, logger } = this.deps;
    try {
      for (const id of store.startDueBroadcasts(now)) logger.info(`dispatcher: scheduled broadcast ${id} started`);
      const until = performance.now() + ENQUEUE_BUDGET_MS;
      for (const id of store.pendingEnqueues()) {
        let chunk: ReturnType<DispatchStore["enqueueNextChunk"]> = { written: 0, done: false, total: null };
        while (!chunk.done && performance.now() < until) chunk = store.enqueueNextChunk(id, now);
        if (!chunk.done) return true;
        if (chunk.total !== null) logger.info(`dispatcher: broadcast ${id} queued (${chunk.total} message(s))`);
      }
    } catch (e) {
      // A full disk: nothing of the failed chunk was written (one transaction each); the next housekeeping goes on.
      if (!this.deps.diskWait.failed(e)) logger.error(`dispatcher: writing a broadcast's deliveries failed: ${errText(e)}`);
    }
    return false;
  }
}
