// serve's backups (NEARCAST_BACKUP_EVERY, NEARCAST_BACKUP_KEEP): `nearcast backup` run as a child process, so the
// copy of a big database never holds the server's event loop, then the oldest beyond the kept number removed.
// Due when the newest backup in <dataDir>/backups is older than the interval, so a restart neither skips nor repeats one.
import { join } from "node:path";
import { BACKUPS_DIR, listBackups, pruneBackups } from "../src/db/backup.ts";
import type { Config } from "../src/config.ts";
import type { Logger } from "../src/lib/logger.ts";
import { userName } from "./data-dir-owner.ts";
import { fileProblem } from "./file-errors.ts";

/** How often serve looks whether a backup is due. */
const CHECK_EVERY_MS = 10 * 60_000;
/** The first look, after start: not while the server is still starting. */
const FIRST_CHECK_MS = 60_000;

/** This executable (or, run from source, bun and the entry script) with `args`. */
function self(args: string[]): string[] {
  return Bun.main.startsWith("/$bunfs/") ? [process.execPath, ...args] : [process.execPath, Bun.main, ...args];
}

export interface ScheduledBackupOptions {
  /** Default one minute after start. */
  firstCheckMs?: number;
  /** The nearcast command line to run `backup` with (tests run the sources); default this executable. */
  nearcast?: string[];
}

export function startScheduledBackups(config: Config, logger: Logger, options: ScheduledBackupOptions = {}): { stop(): void } {
  const every = config.backupEveryMs;
  if (every === null) return { stop() {} };
  let running = false;
  const check = async () => {
    if (running) return;
    running = true;
    try {
      const newest = listBackups(config.dataDir)[0];
      if (newest && Date.now() - newest.mtimeMs < every) return;
      const args = ["backup", "--data-dir", config.dataDir];
      const proc = Bun.spawn(options.nearcast ? [...options.nearcast, ...args] : self(args), { stdout: "pipe", stderr: "pipe", env: process.env });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      if (code !== 0) {
        logger.warn(`scheduled backup failed: ${err.trim().replace(/^nearcast: /, "") || `exit ${code}`}`);
        return;
      }
      logger.info(`scheduled backup: ${out.trim()}`);
      for (const removed of pruneBackups(config.dataDir, config.backupKeep)) logger.info(`scheduled backup: removed the old ${removed}`);
    } catch (e) {
      // A folder this server may not read or write (backups/ left to root by a `sudo nearcast backup` of an older
      // version): said in words, and the server serves on; the next look tries again.
      const path = (e as NodeJS.ErrnoException).path ?? join(config.dataDir, BACKUPS_DIR);
      logger.warn(`scheduled backup failed: cannot use ${path} (${fileProblem(e)}); nearcast runs as ${userName(process.getuid?.() ?? 0)}, which must own ${config.dataDir} and everything in it`);
    } finally {
      running = false;
    }
  };
  let interval: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    void check();
    interval = setInterval(() => void check(), CHECK_EVERY_MS);
  }, options.firstCheckMs ?? FIRST_CHECK_MS);
  return {
    stop() {
      clearTimeout(first);
      if (interval) clearInterval(interval);
    },
  };
}
