// SQLite's own checks of a database file: quick_check at every `serve` start (seconds on a big file are too many;
// it skips the index-content checks), integrity_check of every backup and restore.
import { Database } from "bun:sqlite";

/** null when the file is sound, else SQLite's first complaint (or why it could not be read as a database). */
export function checkDatabaseFile(path: string, kind: "quick_check" | "integrity_check"): string | null {
  let db: Database | undefined;
  try {
    // Read-write (never created): a read-only connection cannot open a WAL database whose -shm is missing.
    db = new Database(path, { readwrite: true });
    const rows = db.query(`PRAGMA ${kind}(5)`).all() as Record<string, string>[];
    const problems = rows.map((r) => Object.values(r)[0]).filter((v) => v !== "ok");
    return problems.length === 0 ? null : problems.join("; ");
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    db?.close();
  }
}
