import { Database } from "bun:sqlite";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";

export type Db = ReturnType<typeof openDb>;

/** The database file in a data dir (with its -wal and -shm beside it while open). */
export const DB_FILE = "nearcast.db";

export function dbFileIn(dataDir: string): string {
  return join(dataDir, DB_FILE);
}

/** How long a statement waits for another connection's write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

// Opens (or creates) the database file with the PRAGMAs the design requires, and checks they took.
export function openDb(path: string) {
  const sqlite = new Database(path, { create: true, strict: true });
  const memory = path === ":memory:";
  if (!memory) sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.exec("PRAGMA foreign_keys = ON");
  // NORMAL is durable in WAL mode except for the last transactions on power loss, and much faster than FULL.
  sqlite.exec("PRAGMA synchronous = NORMAL");
  checkPragmas(sqlite, memory);
  // No schema handed to drizzle: nothing uses its relational queries (db.query.*), and building their config from
  // every table cost each process 2-5 ms at start (issue 26 items 2 and 6). Queries name their tables themselves.
  return drizzle({ client: sqlite });
}

function pragma(sqlite: Database, name: string): unknown {
  const row = sqlite.query(`PRAGMA ${name}`).get() as Record<string, unknown> | null;
  return row ? Object.values(row)[0] : undefined;
}

function checkPragmas(sqlite: Database, memory: boolean): void {
  const expected: [string, unknown][] = [
    ["busy_timeout", BUSY_TIMEOUT_MS],
    ["foreign_keys", 1],
    ["synchronous", 1],
  ];
  if (!memory) expected.push(["journal_mode", "wal"]);
  for (const [name, want] of expected) {
    const got = pragma(sqlite, name);
    if (got !== want) throw new Error(`SQLite setting ${name} is ${String(got)}, expected ${String(want)}`);
  }
}

/**
 * `store` with each method run with SQLite's busy wait off: a write that meets another process's write lock (a CLI
 * import beside `serve`) fails at once with SQLITE_BUSY instead of holding the event loop, and with it every
 * request, while SQLite sleeps and polls for up to busy_timeout (1.0-1.4 s behind a 20,000-row import: bench/stall.ts
 * --beside-send). The dispatcher, whose store this wraps, tries such a write again a moment later
 * (src/dispatch/disk-wait.ts).
 */
export function withoutBusyWait<T extends object>(sqlite: Database, store: T): T {
  let depth = 0;
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(store)) {
    if (typeof value !== "function") {
      wrapped[name] = value;
      continue;
    }
    wrapped[name] = (...args: unknown[]) => {
      if (depth++ === 0) sqlite.exec("PRAGMA busy_timeout = 0");
      try {
        return value(...args);
      } finally {
        if (--depth === 0) sqlite.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
    };
  }
  return wrapped as T;
}
