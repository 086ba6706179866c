// One dispatcher per data directory; the dispatcher gets this lock through its options (src/dispatch/app-dispatchers.ts).
// The lock is a second SQLite connection on <dataDir>/dispatcher.lock that holds BEGIN EXCLUSIVE for as long as the
// dispatcher runs: SQLite takes an OS file lock (fcntl), which another process (or another connection in this one)
// cannot get, and which the OS drops when the process dies, kill -9 included. Nothing is ever written to the file.
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
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
  return exclusive(path, 0);
}

/** An EXCLUSIVE transaction on `path` (created), waiting up to `waitMs` for its holder; null when it stayed held. */
function exclusive(path: string, waitMs: number): DispatcherLock | null {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new Database(path, { create: true });
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.round(waitMs))}`);
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
  if (!existsSync(path)) return false; // nobody holds a lock file that is not there (and asking must not create it)
  const lock = tryLock(path);
  if (!lock) return true;
  lock.release();
  return false;
}

/** Held by `nearcast backup` and `nearcast restore` (serve's scheduled backups are `nearcast backup`): one at a time
 * per data directory, so a restore never swaps files under a backup or another restore, and the leftovers a killed
 * one left can be swept by the next without touching a running one's. */
export const MAINTENANCE_LOCK_FILE = "backup.lock";

/**
 * The maintenance lock of `dataDir` (an EXCLUSIVE transaction on <dataDir>/backup.lock, as tryLock), waiting up to
 * `waitMs` for a backup or restore that holds it to finish; null when it did not.
 */
export function holdMaintenanceLock(dataDir: string, waitMs: number): DispatcherLock | null {
  return exclusive(join(dataDir, MAINTENANCE_LOCK_FILE), waitMs);
}

/** Held by every `serve` on a data directory (the one dispatching and any standing by): `restore` must not swap
 * the database under any of them. */
export const SERVE_LOCK_FILE = "serve.lock";

/**
 * Marks this process as serving the data directory until it exits: a read transaction on <dataDir>/serve.lock
 * (rollback journal) holds a SHARED lock, which any number of servers can share and which blocks an EXCLUSIVE one.
 */
export function holdServeLock(dataDir: string): { release(): void } {
  const db = new Database(join(dataDir, SERVE_LOCK_FILE), { create: true });
  db.exec("PRAGMA journal_mode = DELETE");
  db.exec("BEGIN");
  db.query("SELECT COUNT(*) FROM sqlite_master").get();
  held.add(db);
  return {
    release() {
      if (!held.delete(db)) return;
      db.exec("ROLLBACK");
      db.close();
    },
  };
}

/** True while some `serve` holds <dataDir>/serve.lock (checked by asking for it exclusively, at once). */
export function isServed(dataDir: string): boolean {
  const path = join(dataDir, SERVE_LOCK_FILE);
  if (!existsSync(path)) return false;
  const db = new Database(path);
  try {
    db.exec("PRAGMA busy_timeout = 0");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("ROLLBACK");
    return false;
  } catch (e) {
    if (/locked|busy/i.test((e as Error).message)) return true;
    throw e;
  } finally {
    db.close();
  }
}
