import { Database } from "bun:sqlite";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema.ts";

export type Db = ReturnType<typeof openDb>;

/** The database file in a data dir (with its -wal and -shm beside it while open). */
export const DB_FILE = "nearcast.db";

export function dbFileIn(dataDir: string): string {
  return join(dataDir, DB_FILE);
}

// Opens (or creates) the database file with the PRAGMAs the design requires, and checks they took.
export function openDb(path: string) {
  const sqlite = new Database(path, { create: true, strict: true });
  const memory = path === ":memory:";
  if (!memory) sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA foreign_keys = ON");
  // NORMAL is durable in WAL mode except for the last transactions on power loss, and much faster than FULL.
  sqlite.exec("PRAGMA synchronous = NORMAL");
  checkPragmas(sqlite, memory);
  return drizzle({ client: sqlite, schema });
}

function pragma(sqlite: Database, name: string): unknown {
  const row = sqlite.query(`PRAGMA ${name}`).get() as Record<string, unknown> | null;
  return row ? Object.values(row)[0] : undefined;
}

function checkPragmas(sqlite: Database, memory: boolean): void {
  const expected: [string, unknown][] = [
    ["busy_timeout", 5000],
    ["foreign_keys", 1],
    ["synchronous", 1],
  ];
  if (!memory) expected.push(["journal_mode", "wal"]);
  for (const [name, want] of expected) {
    const got = pragma(sqlite, name);
    if (got !== want) throw new Error(`SQLite setting ${name} is ${String(got)}, expected ${String(want)}`);
  }
}
