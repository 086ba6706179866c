// What `serve` runs beside answering requests: the WAL checkpointer's thread, the broadcast dispatcher, the
// housekeeping timers, the scheduled backups and the check of every page of the database file. They start a moment
// after the server listens (issue 26 item 2): the first requests, a health check or the person who just started it,
// are answered without waiting for two threads and the dispatcher's first round (together about half of the start).
import type { Config } from "../src/config.ts";
import type { AppContext } from "../src/context.ts";
import type { Checkpointer } from "../src/db/checkpointer.ts";
import { startIsDone } from "../src/lib/jit-policy.ts";
import { startScheduledBackups } from "./scheduled-backups.ts";

/** How long after listening the background work starts. */
export const BACKGROUND_AFTER_MS = 100;

export function startBackgroundWork(ctx: AppContext, config: Config): { stop(): Promise<void>; stopCheckpoints(): Promise<void> } {
  let checkpointer: Checkpointer | null = null;
  let backups: { stop(): void } | null = null;
  // Each part on its own: one that cannot start (a full disk, say) is logged, and the server and the others go on.
  const begin = (what: string, part: () => void) => {
    try {
      part();
    } catch (e) {
      ctx.logger.error(`${what} did not start: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const timer = setTimeout(() => {
    // WAL checkpoints on a thread of their own: the event loop only appends (src/db/checkpointer.ts).
    begin("WAL checkpoints", () => {
      checkpointer = ctx.operator.startCheckpointer(ctx.logger);
    });
    // The broadcast dispatcher; a second server on the same data dir serves HTTP and stands by to take over.
    begin("the dispatcher", () => ctx.dispatcher.start());
    begin("the housekeeping", () => ctx.startHousekeeping()); // unreferenced uploads are deleted after 24 h (now and every hour)
    begin("scheduled backups", () => {
      backups = startScheduledBackups(config, ctx.logger);
    });
    // Every page of the file, read on the checkpointer's thread (the start took a quick look): a damaged one stops
    // sending, with a log line and a red line on the checklist (src/services/database-check.ts).
    const check = () => checkpointer?.checkWholeFile() ?? Promise.reject(new Error("the checkpointer's thread did not start"));
    begin("the database check", () =>
      ctx.services.databaseCheck.start({ path: ctx.dbPath, dataDir: config.dataDir, check, stopSending: () => ctx.dispatcher.stop() }),
    );
    startIsDone(); // from now on requests and sending are JIT-compiled as usual (src/lib/jit-policy.ts)
  }, BACKGROUND_AFTER_MS);

  return {
    /** Stops claiming and lets sends in flight finish (the dispatcher waits up to 10 s; see serve's shutdown). */
    async stop() {
      clearTimeout(timer);
      backups?.stop();
      await ctx.dispatcher.stop();
    },
    /** A last checkpoint, then the thread ends. */
    async stopCheckpoints() {
      await checkpointer?.stop();
    },
  };
}
