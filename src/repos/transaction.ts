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

/**
 * The same, committed with synchronous=FULL, then back to NORMAL (the setting of every other write, checked by
 * openDb). In WAL mode NORMAL does not fsync the WAL at commit, so after a power cut the last commits can be gone; FULL
 * returns only after the WAL (with everything committed before it) is on disk. For the writes something outside
 * depends on the moment they return: a claim, before its message goes to the provider (otherwise the next start
 * sends it again: the audit saw 1-18 duplicates per cut at 100 msg/s); a STOP or START, before the person is told
 * it is done; a broadcast, before the owner is told it is queued. The setting is per connection and cannot change
 * inside a transaction: inside one (a test's outer transaction) the outer commit decides.
 */
export function durableTransactionRunner(db: Db): <T>(fn: () => T) => T {
  const sqlite = db.$client;
  const transaction = transactionRunner(db);
  return (fn) => {
    if (sqlite.inTransaction) return transaction(fn);
    sqlite.exec("PRAGMA synchronous = FULL");
    try {
      return transaction(fn);
    } finally {
      sqlite.exec("PRAGMA synchronous = NORMAL");
    }
  };
}
