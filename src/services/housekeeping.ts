// The server's housekeeping timers (started by `serve`, stopped with the context): uploads nothing references are
// deleted once they are 24 h old, looked for now and every hour.
import type { Logger } from "../lib/logger.ts";
import type { UploadsService } from "./uploads.ts";

/** How often the server deletes uploads nothing references (uploads.ts sweepUnreferenced). */
export const UPLOAD_SWEEP_EVERY_MS = 60 * 60 * 1000;

export function createHousekeeping({ uploads, logger, hourly }: { uploads: Pick<UploadsService, "sweepUnreferenced">; logger: Logger; hourly?: () => void }) {
  let sweepTimer: ReturnType<typeof setInterval> | null = null;
  const sweepUploads = () => {
    try {
      const removed = uploads.sweepUnreferenced();
      if (removed.length) logger.info(`deleted ${removed.length} unused upload(s) older than 24 hours`);
      // Other hourly work (the inbox's reply emails due since the last reply).
      hourly?.();
    } catch (err) {
      // A busy or full disk now is no reason to stop the server; the next sweep tries again.
      logger.warn(`upload sweep failed: ${(err as Error).message}`.replace(/\s+/g, " ").slice(0, 300));
    }
  };
  return {
    /** Starts the timers: the upload sweep, now and every hour. */
    start(): void {
      if (sweepTimer) return;
      sweepUploads();
      sweepTimer = setInterval(sweepUploads, UPLOAD_SWEEP_EVERY_MS);
      sweepTimer.unref?.();
    },
    stop(): void {
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
    },
  };
}
