// What `serve` checks in its data dir before it opens the database (issue 21 items 4 and 6): a database it cannot
// read or write, one another process holds locked, and one that is damaged are three different things, each said in
// its own words (only the last sends anyone to a backup); a data dir that lost its database is not given a new empty
// one; a folder it cannot write (an old `sudo nearcast backup` left backups/ to root) is a warning, and it serves on.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Config, ConfigError } from "../src/config.ts";
import { BACKUPS_DIR } from "../src/db/backup.ts";
import { dbFileIn } from "../src/db/client.ts";
import { BUSY_WORDS, databaseState, inaccessiblePart } from "../src/db/integrity.ts";
import { refuseLostDatabase } from "../src/db/restore.ts";
import type { Logger } from "../src/lib/logger.ts";
import { userName } from "./data-dir-owner.ts";

/** How long serve waits at start for another process to let go of the database before calling it busy. */
const BUSY_WAIT_MS = 5000;

const me = () => userName(process.getuid?.() ?? 0);

/** "X belongs to root, and nearcast runs as nearcast" and how to give it back. */
export function notMine(path: string, dataDir: string): string {
  const owner = existsSync(path) ? userName(statSync(path).uid) : "another user";
  const dirOwner = userName(statSync(dataDir).uid);
  return (
    `${path} belongs to ${owner}, and nearcast runs as ${me()}: it cannot read or write it. ` +
    `Give it back: sudo chown -R ${dirOwner}: ${dataDir} (any \`sudo nearcast ...\` command on this data dir does it too)`
  );
}

/** Throws (one line) when serve must not open the data dir's database; returns when it may. */
export function checkDatabaseBeforeServe(config: Config): void {
  const dbFile = dbFileIn(config.dataDir);
  if (!existsSync(dbFile)) {
    refuseLostDatabase(config.dataDir);
    return;
  }
  const s = databaseState(dbFile, "start", BUSY_WAIT_MS);
  if (s.state === "unreadable") throw new ConfigError(`${notMine(s.path, config.dataDir)}; the database is not damaged`);
  if (s.state === "busy") throw new Error(`${dbFile} is busy: ${BUSY_WORDS}`);
  if (s.state === "damaged") {
    throw new Error(`${dbFile} is damaged (quick_check: ${s.detail.replace(/\s+/g, " ")}): restore a backup with \`nearcast restore FILE --data-dir ${config.dataDir}\``);
  }
}

/** Logs, in words, each folder of the data dir serve writes into but cannot; it serves on. */
export function warnUnwritableFolders(config: Config, logger: Logger): void {
  for (const [name, what] of [
    ["uploads", "image uploads fail"],
    [BACKUPS_DIR, "scheduled backups fail"],
  ] as const) {
    const dir = join(config.dataDir, name);
    if (!existsSync(dir)) continue;
    const denied = inaccessiblePart(join(dir, "x"));
    if (denied) logger.warn(`${notMine(denied, config.dataDir)}; until then ${what}`);
  }
}
