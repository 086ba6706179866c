// One dispatcher per data directory; the dispatcher gets this lock through its options (src/context.ts wires it).
// The lock is a second SQLite connection on <dataDir>/dispatcher.lock that holds BEGIN EXCLUSIVE for as long as the
// dispatcher runs: SQLite takes an OS file lock (fcntl), which another process (or another connection in this one)
// cannot get, and which the OS drops when the process dies, kill -9 included. Nothing is ever written to the file.
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";

export const LOCK_FILE = "dispatcher.lock";

/** Held connections, strongly referenced: a collected connection would close and drop the lock. */
const held = new Set<Database>();

export function lockPathFor(dataDir: string): string {
  return join(dataDir, LOCK_FILE);
}

export interface DispatcherLock {
  readonly path: string;
  release(): void;
}

/** The lock, or null when another dispatcher holds it. */
export function tryLock(path: string): DispatcherLock | null {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: true });
  try {
    db.exec("PRAGMA busy_timeout = 0");
    db.exec("BEGIN EXCLUSIVE");
  } catch (e) {
    db.close();
    if (/locked|busy/i.test((e as Error).message)) return null;
    throw e;
  }
  held.add(db);
  return {
    path,
    release() {
      if (!held.delete(db)) return;
      try {
        db.exec("ROLLBACK");
      } finally {
        db.close();
      }
    },
  };
}

/** True when some dispatcher holds the lock right now (checked by trying it and letting go at once). */
export function isLocked(path: string): boolean {
  const lock = tryLock(path);
  if (!lock) return true;
  lock.release();
  return false;
}
