// Issue 10 item 9: the data dir is readable by its owner only. New files get 0600 and folders 0700 from the umask the
// executable sets at start (cli/main.ts) and from explicit modes where they are created; this tightens what an older
// version (or a copy made with another umask) left wider, each time the data dir is opened.
import { chmodSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "./logger.ts";

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** Nearcast's own entries in the data dir: only these are touched (a data dir may sit beside other things). */
const DB_SUFFIXES = ["", "-wal", "-shm", "-journal"];

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function tighten(path: string, mode: number, logger?: Logger): void {
  try {
    const st = statSync(path);
    if ((st.mode & 0o777) === mode) return;
    // Only files of the user running nearcast (root would otherwise take files it should not own the modes of).
    if (typeof process.getuid === "function" && st.uid !== process.getuid()) return;
    chmodSync(path, mode);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== "ENOENT") logger?.warn(`could not make ${path} private (${code ?? "error"})`);
  }
}

/** Makes the data dir 0700 and the database (with its WAL/SHM), the lock files and the uploads 0600/0700. */
export function tightenDataDir(dataDir: string, files: { dbPath: string; lockPaths: string[] }, logger?: Logger): void {
  tighten(dataDir, DIR_MODE, logger);
  for (const suffix of DB_SUFFIXES) tighten(`${files.dbPath}${suffix}`, FILE_MODE, logger);
  for (const lock of files.lockPaths) tighten(lock, FILE_MODE, logger);
  const uploads = join(dataDir, "uploads");
  tighten(uploads, DIR_MODE, logger);
  const names = safeList(uploads);
  // A folder in uploads (the inbox's pictures) needs its search bit: 0700, its files 0600.
  for (const name of names) {
    const path = join(uploads, name);
    if (isDir(path)) {
      tighten(path, DIR_MODE, logger);
      for (const inner of safeList(path)) tighten(join(path, inner), FILE_MODE, logger);
    } else tighten(path, FILE_MODE, logger);
  }
}
