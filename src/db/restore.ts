// `nearcast restore FILE`: a backup (src/db/backup.ts) becomes the data dir's database and uploads. Nothing is
// deleted: the current database (with its -wal and -shm, which must never sit beside another database file) and
// uploads are renamed aside under names no other restore used. The backup is extracted, checked and prepared (the
// caller migrates it and reconciles its unfinished deliveries) in a staging folder before anything in the data dir
// moves; a failure at any step after that puts every renamed file back, so the data dir is as it was. The caller
// holds the data dir's maintenance lock (src/db/lock.ts) and has made sure no server runs on it.
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../config.ts";
import { VERSION } from "../version.ts";
import { type BackupManifest, fileStamp, MANIFEST, tar } from "./backup.ts";
import { DB_FILE } from "./client.ts";
import { checkDatabaseFile } from "./integrity.ts";
import { stagingPrefix } from "./leftovers.ts";
import { KNOWN_SCHEMA } from "./schema-version.ts";

/** The steps of a restore, in order; `onStep` is told each one before it runs ("done": all moved, not returned yet). */
export const RESTORE_STEPS = ["extract", "check", "prepare", "aside-wal", "aside-shm", "aside-db", "aside-uploads", "place-db", "place-uploads", "done"] as const;
export type RestoreStep = (typeof RESTORE_STEPS)[number];

/** What a data dir holds that a restore sets aside, in the order it moves them (the -wal first: a crash between
 * these renames must never leave a WAL beside a database it does not belong to). */
const ASIDE = [
  ["aside-wal", `${DB_FILE}-wal`],
  ["aside-shm", `${DB_FILE}-shm`],
  ["aside-db", DB_FILE],
  ["aside-uploads", "uploads"],
] as const;

export interface RestoreOptions<P> {
  /** Told each step before it runs; a throw fails the restore there (tests fail every step this way). */
  onStep?: (step: RestoreStep) => void;
  /** Works on the checked database while it is still staged (the CLI migrates it and reconciles its deliveries);
   * it must close it again, leaving no -wal. */
  prepare?: (stagedDb: string, manifest: BackupManifest) => P;
}

export interface RestoredFiles<P> {
  manifest: BackupManifest;
  /** What was renamed aside (kept, never deleted). */
  movedAside: string[];
  prepared: P | undefined;
}

const exists = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/** The first suffix under which none of the set-aside names exists: `-<stamp>`, then `-<stamp>-2`, ... */
function asideSuffix(dataDir: string, stamp: string): string {
  for (let n = 1; ; n++) {
    const suffix = `.before-restore-${stamp}${n === 1 ? "" : `-${n}`}`;
    if (!ASIDE.some(([, name]) => exists(join(dataDir, `${name}${suffix}`)))) return suffix;
  }
}

/** Refuses anything but a manifest, a database file and an uploads folder of plain files: no symbolic or hard
 * link (a nearcast.db pointing elsewhere would have the server write there), no device, nothing else. */
function checkEntries(file: string, staging: string): void {
  const refuse = (why: string) => {
    throw new ConfigError(`${file} is not a nearcast backup (${why}); nothing was changed`);
  };
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const shown = rel ? `${rel}/${name}` : name;
      if (!rel && ![MANIFEST, DB_FILE, "uploads"].includes(name)) refuse(`unexpected entry ${shown}`);
      const st = lstatSync(path);
      if (st.isSymbolicLink()) refuse(`${shown} is a symbolic link`);
      if (st.isDirectory() && (rel || name === "uploads")) walk(path, shown);
      else if (!st.isFile() || (!rel && name === "uploads")) refuse(`${shown} is not a plain file`);
      else if (st.nlink > 1) refuse(`${shown} is a hard link`);
    }
  };
  walk(staging, "");
}

function readManifest(file: string, staging: string): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(join(staging, MANIFEST), "utf8")) as BackupManifest;
  } catch {
    throw new ConfigError(`${file} is not a nearcast backup (no readable ${MANIFEST})`);
  }
  if (manifest?.format !== "nearcast-backup/1" || !existsSync(join(staging, DB_FILE))) {
    throw new ConfigError(`${file} is not a nearcast backup (format ${JSON.stringify(manifest?.format)})`);
  }
  if (manifest.schema > KNOWN_SCHEMA) {
    throw new ConfigError(`${file} holds database schema ${manifest.schema} (written by nearcast ${manifest.version}), newer than this nearcast's ${KNOWN_SCHEMA} (version ${VERSION}): restore it with that version`);
  }
  return manifest;
}

/** Reads, checks and prepares `file` completely before anything in `dataDir` is touched. */
export function restoreBackup<P = undefined>(file: string, dataDir: string, now: Date, options: RestoreOptions<P> = {}): RestoredFiles<P> {
  if (!existsSync(file)) throw new ConfigError(`${file}: no such backup file`);
  const step = (s: RestoreStep) => options.onStep?.(s);
  const staging = mkdtempSync(stagingPrefix(dataDir, "restore"));
  const moved: [from: string, to: string][] = [];
  const move = (from: string, to: string) => {
    renameSync(from, to);
    moved.push([from, to]);
  };
  try {
    step("extract");
    try {
      // Owners and modes from the archive are not kept: the files are this user's, private (umask 077).
      tar(["-xzf", file, "-C", staging, "--no-same-owner", "--no-same-permissions"]);
    } catch (e) {
      throw new ConfigError(`${file} is not a nearcast backup (${(e as Error).message})`);
    }
    step("check");
    checkEntries(file, staging);
    const manifest = readManifest(file, staging);
    const problem = checkDatabaseFile(join(staging, DB_FILE), "integrity_check");
    if (problem) throw new ConfigError(`${file}: its database fails the integrity check (${problem}); nothing was changed`);
    step("prepare");
    const prepared = options.prepare?.(join(staging, DB_FILE), manifest);
    // Only the database file moves: what prepare wrote must be in it, not in a -wal left beside it.
    if (exists(join(staging, `${DB_FILE}-wal`)) && lstatSync(join(staging, `${DB_FILE}-wal`)).size > 0) {
      throw new Error("the restored database was left open while it was prepared; nothing was changed");
    }

    const suffix = asideSuffix(dataDir, fileStamp(now));
    const movedAside: string[] = [];
    for (const [s, name] of ASIDE) {
      step(s);
      if (!exists(join(dataDir, name))) continue;
      move(join(dataDir, name), join(dataDir, `${name}${suffix}`));
      movedAside.push(join(dataDir, `${name}${suffix}`));
    }
    step("place-db");
    move(join(staging, DB_FILE), join(dataDir, DB_FILE));
    step("place-uploads");
    if (exists(join(staging, "uploads"))) move(join(staging, "uploads"), join(dataDir, "uploads"));
    step("done");
    return { manifest, movedAside, prepared };
  } catch (e) {
    const stuck = putBack(moved);
    if (stuck.length === 0) throw e;
    throw new Error(`${(e as Error).message}; putting the data dir back failed too, move these by hand: ${stuck.join("; ")}`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Undoes the renames, last first; what could not be moved back, as "to -> from". */
function putBack(moved: [string, string][]): string[] {
  const stuck: string[] = [];
  for (const [from, to] of moved.reverse()) {
    try {
      renameSync(to, from);
    } catch {
      stuck.push(`${to} -> ${from}`);
    }
  }
  return stuck;
}

/**
 * What in `dataDir` shows it had a database, when it has none now: databases a restore set aside, backups. A new
 * install has neither; a data dir with these and no nearcast.db lost it (a restore killed half-way, a file moved),
 * and a new empty database there would hide that. [] when there is a database or nothing of the kind.
 */
export function signsOfLostDatabase(dataDir: string): string[] {
  if (exists(join(dataDir, DB_FILE))) return [];
  let names: string[] = [];
  try {
    names = readdirSync(dataDir);
  } catch {
    return [];
  }
  const signs = names.filter((n) => n.startsWith(`${DB_FILE}.before-restore-`)).map((n) => join(dataDir, n));
  try {
    const backups = readdirSync(join(dataDir, "backups")).filter((n) => n.endsWith(".tar.gz") && !n.startsWith("."));
    signs.push(...backups.sort().reverse().map((n) => join(dataDir, "backups", n)));
  } catch {}
  return signs;
}

/** The refusal of a command that would create a database where one was lost (serve, migrate, users create). */
export function refuseLostDatabase(dataDir: string): void {
  const signs = signsOfLostDatabase(dataDir);
  if (signs.length === 0) return;
  const backup = signs.find((s) => s.endsWith(".tar.gz"));
  throw new ConfigError(
    `${join(dataDir, DB_FILE)} is missing, but ${dataDir} holds ${signs.length === 1 ? signs[0] : `${signs[0]} and ${signs.length - 1} more`} (a restore that did not finish, or a database moved away): ` +
      `restore a backup with \`nearcast restore ${backup ?? "FILE"} --data-dir ${dataDir}\` rather than start an empty shop (to start one anyway, move those files out of ${dataDir} first)`,
  );
}
