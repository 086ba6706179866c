// SQLite's own checks of a database file: at every `serve` start a quick look that reads a few pages whatever the
// file's size (the header, the schema, the first rows of every table), then quick_check of every page in the
// background once the server answers (on the checkpointer's thread, src/db/checkpointer.ts: seconds on a big file);
// integrity_check of every backup and restore. A file this process may not open, or one another process holds
// locked, is not damaged: each is told apart, so nobody is sent to restore a backup over a database that is whole.
import { Database } from "bun:sqlite";
import { accessSync, constants, existsSync } from "node:fs";
import { dirname } from "node:path";

/** What a busy database is called everywhere (serve, every command). */
export const BUSY_WORDS = "another process is writing; try again";

export type DatabaseState =
  | { state: "ok" }
  | { state: "damaged"; detail: string }
  | { state: "busy" }
  /** `path` (the database, its -wal or -shm, or its folder) cannot be read or written by this process. */
  | { state: "unreadable"; path: string };

/** True for SQLite's "database is locked" (SQLITE_BUSY) and "database table is locked" (SQLITE_LOCKED). */
export function isBusyError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  if (typeof code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(code)) return true;
  return e instanceof Error && /database (table )?is locked/i.test(e.message);
}

/** The first of the database, its -wal and -shm (when there) and its folder that this process cannot read and write. */
export function inaccessiblePart(path: string): string | null {
  for (const [p, mode] of [
    [dirname(path), constants.R_OK | constants.W_OK | constants.X_OK],
    [path, constants.R_OK | constants.W_OK],
    [`${path}-wal`, constants.R_OK | constants.W_OK],
    [`${path}-shm`, constants.R_OK | constants.W_OK],
  ] as const) {
    if (p !== dirname(path) && !existsSync(p)) continue;
    try {
      accessSync(p, mode);
    } catch {
      return p;
    }
  }
  return null;
}

/** What `kind` finds wrong with the open database (empty: nothing). "start" reads the header and the schema (the
 * query on sqlite_schema fails when either is damaged) and the root of every table; the pragmas read every page. */
function problemsOf(db: Database, kind: CheckKind): string[] {
  if (kind !== "start") {
    const rows = db.query(`PRAGMA ${kind}(5)`).all() as Record<string, string>[];
    return rows.map((r) => Object.values(r)[0]!).filter((v) => v !== "ok");
  }
  const tables = db.query("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[];
  const problems: string[] = [];
  for (const { name } of tables) {
    try {
      db.query(`SELECT * FROM "${name.replaceAll('"', '""')}" LIMIT 1`).all();
    } catch (e) {
      if (isBusyError(e)) throw e;
      problems.push(`table ${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return problems;
}

/** "start": the quick look at every serve start; the pragmas: every page (quick_check skips the indexes' content). */
export type CheckKind = "start" | "quick_check" | "integrity_check";

/** The state of the database file at `path` (which exists). Waits up to `busyWaitMs` for a writer to let go. */
export function databaseState(path: string, kind: CheckKind, busyWaitMs = 0): DatabaseState {
  const denied = inaccessiblePart(path);
  if (denied) return { state: "unreadable", path: denied };
  let db: Database | undefined;
  try {
    // Read-write (never created): a read-only connection cannot open a WAL database whose -shm is missing.
    db = new Database(path, { readwrite: true });
    db.exec(`PRAGMA busy_timeout = ${busyWaitMs}`);
    const problems = problemsOf(db, kind);
    return problems.length === 0 ? { state: "ok" } : { state: "damaged", detail: problems.join("; ") };
  } catch (e) {
    if (isBusyError(e)) return { state: "busy" };
    if (/unable to open|readonly|permission|access/i.test((e as Error).message ?? "")) return { state: "unreadable", path };
    return { state: "damaged", detail: e instanceof Error ? e.message : String(e) };
  } finally {
    db?.close();
  }
}

/** null when the file is sound, else SQLite's first complaint (or why it could not be read as a database). */
export function checkDatabaseFile(path: string, kind: "quick_check" | "integrity_check"): string | null {
  const s = databaseState(path, kind);
  if (s.state === "ok") return null;
  if (s.state === "damaged") return s.detail;
  return s.state === "busy" ? `busy: ${BUSY_WORDS}` : `${s.path} cannot be read or written by this user`;
}
