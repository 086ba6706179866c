// The database a process works on, opened once: its file found (or made) in the data dir, its schema checked against
// this executable's and brought up to it when the command may, the data dir's modes tightened. Everything else on the
// file itself (a backup, the checkpointer, a WAL truncate) goes through what this returns, so no caller holds the
// SQLite handle.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Config, ConfigError } from "../config.ts";
import { tightenDataDir } from "../lib/data-dir-modes.ts";
import type { Logger } from "../lib/logger.ts";
import { VERSION } from "../version.ts";
import { type BackupResult, writeBackup } from "./backup.ts";
import { type CheckpointerOptions, startCheckpointer } from "./checkpointer.ts";
import { type Db, dbFileIn, openDb } from "./client.ts";
import { lockPathFor, SERVE_LOCK_FILE } from "./lock.ts";
import { migrate } from "./migrate.ts";
import { appliedSchema, KNOWN_SCHEMA } from "./schema-version.ts";

/**
 * How a command may treat the database: "migrate" creates it or brings it to this executable's schema (serve,
 * `nearcast migrate`, tests); "create" does the same for a new file only (`users create`); "existing" needs a file
 * already at this schema (every other command: a mistyped --data-dir is an error, not a new empty database).
 */
export type DatabaseMode = "migrate" | "create" | "existing";

/** Writes a checked backup of the open database to `out` (src/db/backup.ts). */
export type WriteBackup = (out: string, now: Date) => BackupResult;

/** Called before an existing database (schema `from` > 0) is migrated to `to`: serve and migrate back it up then. */
export type BeforeUpgrade = (from: number, to: number, backup: WriteBackup) => void;

export interface OpenOptions {
  /** ":memory:" for tests; defaults to <dataDir>/nearcast.db. */
  dbPath?: string;
  /** Default "migrate". */
  database?: DatabaseMode;
  beforeUpgrade?: BeforeUpgrade;
  logger: Logger;
}

/** The schemas an existing database was upgraded between as it was opened. */
export interface SchemaUpgrade {
  from: number;
  to: number;
}

/** The database file a command names: the data dir's, made when the mode allows (never for "existing"). */
function databasePath(dataDir: string, mode: DatabaseMode, dbPath: string | undefined): string {
  if (dbPath) return dbPath;
  if (mode === "existing" && !existsSync(dbFileIn(dataDir))) {
    throw new ConfigError(
      `no database at ${dbFileIn(dataDir)}: check --data-dir (or NEARCAST_DATA_DIR); \`nearcast serve\` or \`nearcast migrate\` creates one`,
    );
  }
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new ConfigError(`--data-dir ${dataDir} cannot be created (${(err as { code?: string }).code ?? "error"}): choose a writable folder with --data-dir or NEARCAST_DATA_DIR`);
  }
  return dbFileIn(dataDir);
}

/** Brings the open database to this executable's schema when `mode` allows it, else closes it and says why. */
function bringToSchema(db: Db, dbPath: string, dataDir: string, mode: DatabaseMode, options: OpenOptions): SchemaUpgrade | null {
  const from = appliedSchema(db.$client);
  if (from > KNOWN_SCHEMA) {
    db.$client.close();
    throw new ConfigError(`${dbPath} has database schema ${from}, newer than this nearcast's ${KNOWN_SCHEMA} (version ${VERSION}): run the newer nearcast that upgraded it`);
  }
  if (from === KNOWN_SCHEMA) return null;
  if (mode === "existing" || (mode === "create" && from > 0)) {
    db.$client.close();
    throw new ConfigError(`${dbPath} has database schema ${from}; this nearcast (version ${VERSION}) needs ${KNOWN_SCHEMA}: run \`nearcast migrate --data-dir ${dataDir}\` first`);
  }
  if (from > 0) options.beforeUpgrade?.(from, KNOWN_SCHEMA, (out, now) => writeBackup(db.$client, dataDir, out, now));
  migrate(db);
  if (from === 0) return null;
  options.logger.info(`database upgraded from schema ${from} to ${KNOWN_SCHEMA}`);
  return { from, to: KNOWN_SCHEMA };
}

/** Opens, checks and (as the mode allows) migrates the database of `config.dataDir` (or `options.dbPath`). */
export function openDatabase(config: Pick<Config, "dataDir">, options: OpenOptions) {
  const { dataDir } = config;
  const mode = options.database ?? "migrate";
  const dbPath = databasePath(dataDir, mode, options.dbPath);
  const db = openDb(dbPath);
  const schemaUpgrade = bringToSchema(db, dbPath, dataDir, mode, options);
  if (dbPath !== ":memory:") tightenDataDir(dataDir, { dbPath, lockPaths: [lockPathFor(dataDir), join(dataDir, SERVE_LOCK_FILE)] }, options.logger);
  return {
    db,
    /** The database file (":memory:" in tests). */
    dbPath,
    /** The schemas an existing database was upgraded between as it was opened; null when it was not. */
    schemaUpgrade,
    /** A checked backup of the database (and the uploads) while it is open. */
    backup: ((out, now) => writeBackup(db.$client, dataDir, out, now)) as WriteBackup,
    /** Keeps the WAL file small while the server runs (src/db/checkpointer.ts). */
    startCheckpointer: (opts: CheckpointerOptions) => startCheckpointer(db.$client, dbPath, opts),
    /** Everything into the database file itself, the WAL emptied: before the file alone is moved. */
    truncateWal: () => void db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)"),
    close: () => db.$client.close(),
  };
}

export type OpenedDatabase = ReturnType<typeof openDatabase>;
