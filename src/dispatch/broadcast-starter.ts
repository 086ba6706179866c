// Starts scheduled broadcasts when their time comes (issue 11 item 5). The send loop calls startDue() with its
// housekeeping (every second, and whenever it wakes from idle); nextDueAt() includes the next scheduled time, so an
// idle loop wakes for it. Everything is in the database, so a restart (kill -9 included) simply starts what is due.
import type { Logger } from "../lib/logger.ts";
import type { DiskWait } from "./disk-wait.ts";
import type { DispatchStore } from "./store.ts";

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class BroadcastStarter {
  constructor(private readonly deps: { store: DispatchStore; logger: Logger; diskWait: DiskWait }) {}

  startDue(now: number): void {
    const { store, logger } = this.deps;
    try {
      for (const b of store.startDueBroadcasts(now)) {
        logger.info(`dispatcher: scheduled broadcast ${b.id} started (${b.total} message(s))`);
      }
    } catch (e) {
      // A full disk: nothing was written (one transaction per broadcast); the next housekeeping tries again.
      if (!this.deps.diskWait.failed(e)) logger.error(`dispatcher: starting scheduled broadcasts failed: ${errText(e)}`);
    }
  }
}
