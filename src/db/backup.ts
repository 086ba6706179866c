// Backups of a data dir: the database as SQLite's VACUUM INTO writes it (a consistent snapshot taken in one read
// transaction, so it works while `serve` writes; a plain cp of a live WAL database can be corrupt), checked with
// integrity_check, plus the uploads folder and a manifest, in one .tar.gz made by the system's tar (streamed: a big
// database never sits in memory). `nearcast backup`, serve's schedule (NEARCAST_BACKUP_EVERY) and serve's backup
// before a schema upgrade all come here; `nearcast restore` reads the same files back (src/db/restore.ts).
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { VERSION } from "../version.ts";
import { DB_FILE } from "./client.ts";
import { checkDatabaseFile } from "./integrity.ts";
import { partialPathFor, stagingPrefix } from "./leftovers.ts";
import { appliedSchema } from "./schema-version.ts";

export const BACKUPS_DIR = "backups";
export const MANIFEST = "manifest.json";

/** The tables a manifest counts (what an owner would miss). */
const COUNTED = ["users", "businesses", "customers", "subscriptions", "broadcasts", "deliveries", "consent_events"] as const;

export interface BackupManifest {
  format: "nearcast-backup/1";
  /** The executable that wrote it. */
  version: string;
  /** The database's schema (migrations applied). */
  schema: number;
  /** When the snapshot was taken (ISO 8601): deliveries unfinished then are checked with the provider on restore. */
  takenAt: string;
  counts: Record<(typeof COUNTED)[number], number>;
  uploads: number;
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: BackupManifest;
}

/** A time as it goes in a file name: 20261126T001500Z. */
export function fileStamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}

/** A backup's default place and name: <dataDir>/backups/nearcast-20261126T001500Z.tar.gz. */
export function defaultBackupPath(dataDir: string, at: Date): string {
  return join(dataDir, BACKUPS_DIR, `nearcast-${fileStamp(at)}.tar.gz`);
}

/** Runs tar; its error as one line. */
export function tar(args: string[]): void {
  let r: ReturnType<typeof Bun.spawnSync>;
  try {
    r = Bun.spawnSync(["tar", ...args], { stdout: "pipe", stderr: "pipe" });
  } catch {
    throw new Error("the tar program was not found (install it: apt-get install tar)");
  }
  if (r.exitCode !== 0) throw new Error(`tar failed: ${r.stderr?.toString().trim().split("\n")[0] || `exit ${r.exitCode}`}`);
}

function countRows(path: string): { schema: number; counts: BackupManifest["counts"] } {
  const db = new Database(path, { readonly: true });
  try {
    const counts = Object.fromEntries(
      COUNTED.map((t) => [t, (db.query(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n]),
    ) as BackupManifest["counts"];
    return { schema: appliedSchema(db), counts };
  } finally {
    db.close();
  }
}

/**
 * Writes a backup of the database open on `sqlite` (in `dataDir`) to `out`. Nothing is left behind on failure (a
 * killed run's staging folder and .partial file are swept by the next: src/db/leftovers.ts); the .tar.gz appears
 * under its name only once complete. The caller holds the data dir's maintenance lock.
 */
export function writeBackup(sqlite: Database, dataDir: string, out: string, now: Date): BackupResult {
  mkdirSync(dirname(out), { recursive: true, mode: 0o700 });
  const staging = mkdtempSync(stagingPrefix(dirname(out), "staging"));
  const partial = partialPathFor(out);
  try {
    const copy = join(staging, DB_FILE);
    sqlite.prepare("VACUUM INTO ?1").run(copy);
    const problem = checkDatabaseFile(copy, "integrity_check");
    if (problem) throw new Error(`the copy of the database failed its integrity check (${problem}); nothing was written`);
    const { schema, counts } = countRows(copy);
    const uploadsDir = join(dataDir, "uploads");
    const uploads = existsSync(uploadsDir) ? readdirSync(uploadsDir, { withFileTypes: true }).filter((e) => e.isFile()).length : 0;
    const manifest: BackupManifest = { format: "nearcast-backup/1", version: VERSION, schema, takenAt: now.toISOString(), counts, uploads };
    writeFileSync(join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    tar(["-czf", partial, "-C", staging, MANIFEST, DB_FILE, ...(existsSync(uploadsDir) ? ["-C", dataDir, "uploads"] : [])]);
    renameSync(partial, out);
    return { file: out, bytes: statSync(out).size, manifest };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
}

/** The backups in <dataDir>/backups written by this code, newest first. */
export function listBackups(dataDir: string): { file: string; mtimeMs: number }[] {
  const dir = join(dataDir, BACKUPS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => /^nearcast-\d{8}T\d{6}Z\.tar\.gz$/.test(n))
    .map((n) => ({ file: join(dir, n), mtimeMs: statSync(join(dir, n)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** Keeps the newest `keep` backups of <dataDir>/backups; the paths removed. */
export function pruneBackups(dataDir: string, keep: number): string[] {
  const old = listBackups(dataDir).slice(keep);
  for (const b of old) rmSync(b.file, { force: true });
  return old.map((b) => b.file);
}
