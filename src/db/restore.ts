// `nearcast restore FILE`: a backup (src/db/backup.ts) becomes the data dir's database and uploads. Nothing is
// deleted: the current database (with its -wal and -shm, which must never sit beside another database file) and
// uploads are renamed aside first. The caller then reconciles the deliveries the backup had unfinished.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../config.ts";
import { VERSION } from "../version.ts";
import { type BackupManifest, BACKUPS_DIR, fileStamp, MANIFEST, tar } from "./backup.ts";
import { DB_FILE } from "./client.ts";
import { checkDatabaseFile } from "./integrity.ts";
import { KNOWN_SCHEMA } from "./schema-version.ts";

export interface RestoredFiles {
  manifest: BackupManifest;
  /** What was renamed aside (kept, never deleted). */
  movedAside: string[];
}

/** Reads and checks `file` completely before anything in `dataDir` is touched. */
export function restoreBackup(file: string, dataDir: string, now: Date): RestoredFiles {
  if (!existsSync(file)) throw new ConfigError(`${file}: no such backup file`);
  mkdirSync(join(dataDir, BACKUPS_DIR), { recursive: true, mode: 0o700 });
  const staging = mkdtempSync(join(dataDir, BACKUPS_DIR, ".restore-"));
  try {
    try {
      tar(["-xzf", file, "-C", staging]);
    } catch (e) {
      throw new ConfigError(`${file} is not a nearcast backup (${(e as Error).message})`);
    }
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(readFileSync(join(staging, MANIFEST), "utf8")) as BackupManifest;
    } catch {
      throw new ConfigError(`${file} is not a nearcast backup (no readable ${MANIFEST})`);
    }
    if (manifest.format !== "nearcast-backup/1" || !existsSync(join(staging, DB_FILE))) {
      throw new ConfigError(`${file} is not a nearcast backup (format ${JSON.stringify(manifest.format)})`);
    }
    if (manifest.schema > KNOWN_SCHEMA) {
      throw new ConfigError(`${file} holds database schema ${manifest.schema} (written by nearcast ${manifest.version}), newer than this nearcast's ${KNOWN_SCHEMA} (version ${VERSION}): restore it with that version`);
    }
    const problem = checkDatabaseFile(join(staging, DB_FILE), "integrity_check");
    if (problem) throw new ConfigError(`${file}: its database fails the integrity check (${problem}); nothing was changed`);

    const stamp = fileStamp(now);
    const movedAside: string[] = [];
    const aside = (name: string) => {
      const from = join(dataDir, name);
      if (!existsSync(from)) return;
      const to = join(dataDir, `${name}.before-restore-${stamp}`);
      renameSync(from, to);
      movedAside.push(to);
    };
    // The -wal first: a crash between these renames must never leave a WAL beside a database it does not belong to.
    aside(`${DB_FILE}-wal`);
    aside(`${DB_FILE}-shm`);
    aside(DB_FILE);
    aside("uploads");
    renameSync(join(staging, DB_FILE), join(dataDir, DB_FILE));
    if (existsSync(join(staging, "uploads"))) renameSync(join(staging, "uploads"), join(dataDir, "uploads"));
    return { manifest, movedAside };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
