import type { Db } from "../db/client.ts";

/**
 * The one way to run a write transaction: BEGIN IMMEDIATE, so a writer waits out busy_timeout behind another
 * connection instead of failing at once (a DEFERRED transaction that reads and then writes cannot wait); inside a
 * transaction already open it becomes a savepoint. `fn` must be synchronous: bun:sqlite commits early on an await.
 */
export function transactionRunner(db: Db): <T>(fn: () => T) => T {
  const sqlite = db.$client;
  return (fn) => sqlite.transaction(fn).immediate();
}
