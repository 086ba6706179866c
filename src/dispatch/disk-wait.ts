// A full (or read-only) disk is a pause, not a failure (issue 10, item 4): when a store write fails for lack of room
// the dispatcher keeps every row as it is (a claimed row stays Sending, an answer not yet written is kept in memory
// and written later), waits with a growing backoff (1 s, 2 s, 4 s ... 30 s) and tries again, so a broadcast resumes
// by itself once space returns, without a restart. One log line when an episode starts and one when it ends, not one
// per try. Reads keep working meanwhile (SQLite reads need no room).
import { isDiskFull } from "../db/disk-full.ts";
import { isBusyError } from "../db/integrity.ts";
import type { Logger } from "../lib/logger.ts";

export const DISK_FULL_FIRST_RETRY_MS = 1_000;
export const DISK_FULL_MAX_RETRY_MS = 30_000;
/** Another process held the write lock (the store does not wait for it: src/db/client.ts withoutBusyWait): the
 * write is tried again this soon, with no log line. */
export const BUSY_RETRY_MS = 2;

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class DiskWait {
  private since: number | null = null;
  private delayMs = DISK_FULL_FIRST_RETRY_MS;
  private retryAt = Number.NEGATIVE_INFINITY;
  /** Until when writes wait after one found the database busy. */
  private busyUntil = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /** Whether writes are being held back (an episode is on). */
  get waiting(): boolean {
    return this.since !== null || this.now() < this.busyUntil;
  }

  /** How long until the next try (0 when there is no episode or the try is due). */
  waitMs(now: number): number {
    return Math.max(0, this.since === null ? this.busyUntil - now : this.retryAt - now);
  }

  /**
   * `e` came from a store write. Disk full: starts or extends the episode (the next try waits longer) and answers
   * true, the caller keeps what it could not write. The database busy (another process writing): the same, for
   * BUSY_RETRY_MS. Anything else: false (the caller handles it as before).
   */
  failed(e: unknown): boolean {
    if (isBusyError(e)) {
      this.busyUntil = this.now() + BUSY_RETRY_MS;
      return true;
    }
    if (!isDiskFull(e)) return false;
    const now = this.now();
    if (this.since === null) {
      this.since = now;
      this.delayMs = DISK_FULL_FIRST_RETRY_MS;
      this.logger.error(
        `dispatcher: the disk is full or read-only (${errText(e)}); sending paused, nothing is marked failed; ` +
          `retrying every ${DISK_FULL_FIRST_RETRY_MS / 1000} s up to ${DISK_FULL_MAX_RETRY_MS / 1000} s until there is room`,
      );
    } else {
      this.delayMs = Math.min(DISK_FULL_MAX_RETRY_MS, this.delayMs * 2);
    }
    this.retryAt = now + this.delayMs;
    return true;
  }

  /** A write went through: the episode (if any) is over. */
  succeeded(): void {
    if (this.since === null) return;
    const seconds = ((this.now() - this.since) / 1000).toFixed(1);
    this.since = null;
    this.retryAt = Number.NEGATIVE_INFINITY;
    this.logger.info(`dispatcher: the disk has room again; sending resumed after ${seconds} s`);
  }
}
