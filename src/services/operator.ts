// What the operator's commands do beside the screens (cli/commands/backup.ts, prune.ts, serve.ts): the few operations
// on the database file and the outbox that no owner or admin page offers. The CLI reaches the database through these,
// never through the repos or the SQLite handle.
import type { OpenedDatabase } from "../db/open.ts";
import type { Logger } from "../lib/logger.ts";
import type { Repos } from "../repos/index.ts";
import { pruneScope } from "./prune-scope.ts";

export interface OperatorDeps {
  repos: Pick<Repos, "deliveries" | "broadcasts">;
  /** The open database file (src/db/open.ts). */
  file: Pick<OpenedDatabase, "backup" | "startCheckpointer" | "truncateWal">;
}

export function createOperatorService({ repos, file }: OperatorDeps) {
  return {
    /** A checked backup (database and uploads) to `out`; call it holding the maintenance lock (cli backup.ts). */
    backup: file.backup,

    /** Serve's checkpointer: keeps the WAL file small while the server runs, and runs the whole-file check. */
    startCheckpointer: (logger: Logger) => file.startCheckpointer({ logger }),

    /**
     * A restored database while it is still staged: its unfinished deliveries are marked to be checked with the
     * provider since the backup was taken; answers how many, and the broadcasts not finished. Then everything goes
     * into the database file itself: only that file moves into the data dir.
     */
    prepareRestored(takenAt: number, now: number) {
      const checked = repos.deliveries.reconcileRestored(takenAt, now);
      const unfinished = repos.broadcasts.unfinished();
      file.truncateWal();
      return { checked, unfinished };
    },

    /** The broadcasts whose delivery rows `prune --older-than N` removes, and those it keeps (links or coupons). */
    pruneScope: (olderThanDays: number, now: number) => pruneScope(repos.deliveries, olderThanDays, now),

    /** Up to `limit` delivery rows of a finished broadcast, removed in one short transaction; how many. */
    pruneDeliveries: (broadcastId: number, limit: number): number => repos.deliveries.pruneDeliveries(broadcastId, limit),
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;
