import { Option } from "commander";
import { existsSync } from "node:fs";
import { type Config, ConfigError, loadConfig } from "../src/config.ts";
import { type AppContext, createContext } from "../src/context.ts";
import type { DatabaseMode } from "../src/db/open.ts";
import { dbFileIn } from "../src/db/client.ts";
import { BUSY_WORDS, inaccessiblePart, isBusyError } from "../src/db/integrity.ts";
import { refuseLostDatabase } from "../src/db/restore.ts";
import { ValidationError } from "../src/errors.ts";
import { startIsDone } from "../src/lib/jit-policy.ts";
import { withServiceEnv } from "../src/service-env.ts";
import { runAsDataDirOwner } from "./data-dir-owner.ts";
import { notMine } from "./serve-checks.ts";
import { type Logger, MemoryLogger } from "../src/lib/logger.ts";
import { parseIdText } from "../src/schemas/ids.ts";
import { EXIT_OK, EXIT_USAGE } from "./exit-codes.ts";

// What every command shares: its options, its context, its parsing and its output.

/** --data-dir, shared by every command that opens the database. */
export const dataDirOption = () =>
  new Option("--data-dir <dir>", "folder holding nearcast.db and uploads (env NEARCAST_DATA_DIR)").default(
    undefined,
    "the service's (NEARCAST_DATA_DIR in /etc/nearcast/nearcast.env, or NEARCAST_ENV_FILE), else ./data",
  );

/**
 * The configuration of a command on a data dir, found the way the service finds it (src/service-env.ts), with this
 * process turned into the data dir's owner (cli/data-dir-owner.ts) before anything there is opened.
 */
export function commandConfig(dataDirFlag: string | undefined, env: Record<string, string | undefined> = process.env): Config {
  const config = loadConfig(withServiceEnv(env, dataDirFlag).env, { dataDir: dataDirFlag });
  runAsDataDirOwner(config.dataDir);
  return config;
}

/** SQLite's "database is locked" in words, naming the file; any other error as it is. */
export function busyInWords(e: unknown, dataDir: string): unknown {
  return isBusyError(e) ? new Error(`${dbFileIn(dataDir)} is busy: ${BUSY_WORDS}`) : e;
}

export interface ContextChoices {
  /** The settings to read instead of process.env (a flag such as --public-url wins over its variable). */
  env?: Record<string, string | undefined>;
  /** Where the services' log lines go; by default nowhere (a one-shot command prints only its own output). */
  logger?: Logger;
  /** Default "existing": the database must be there, at this executable's schema (src/db/open.ts DatabaseMode). */
  database?: DatabaseMode;
}

/**
 * Runs one command against the data directory's database (the server's, when one runs), and closes it whatever
 * happens. An error goes on to main(), which prints it as one line and sets the exit code.
 */
export async function withContext<T>(
  opts: { dataDir?: string },
  run: (ctx: AppContext) => T | Promise<T>,
  choices: ContextChoices = {},
): Promise<T> {
  const config = commandConfig(opts.dataDir, choices.env);
  // A command that may create a database (users create) does not where one was lost (src/db/restore.ts).
  if ((choices.database ?? "existing") !== "existing") refuseLostDatabase(config.dataDir);
  let ctx: AppContext;
  try {
    ctx = createContext(config, { logger: choices.logger ?? new MemoryLogger(), database: choices.database ?? "existing" });
  } catch (e) {
    // A database this user may not open is said so (never "unable to open database file", never "damaged").
    const denied = existsSync(dbFileIn(config.dataDir)) ? inaccessiblePart(dbFileIn(config.dataDir)) : null;
    if (denied) throw new ConfigError(notMine(denied, config.dataDir));
    throw busyInWords(e, config.dataDir);
  }
  startIsDone(); // the command's own work is JIT-compiled as usual (src/lib/jit-policy.ts)
  try {
    return await run(ctx);
  } catch (e) {
    throw busyInWords(e, config.dataDir);
  } finally {
    ctx.close();
  }
}

/** A database id given on the command line; anything else is an input error (exit 2) naming `what`. */
export function parseId(raw: string, what = "ID"): number {
  const id = parseIdText(raw);
  if (id === null) throw new ValidationError(`${what} must be a positive whole number (got "${raw}")`);
  return id;
}

/** Usage mistakes (unknown option, missing argument) exit 2 like every other input error; help exits 0. */
export function usageExit(err: { exitCode: number }): never {
  process.exit(err.exitCode === 0 ? EXIT_OK : EXIT_USAGE);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Fixed-width columns for the terminal. */
export function printTable(rows: Record<string, unknown>[], columns: string[]): void {
  if (rows.length === 0) {
    process.stdout.write("(none)\n");
    return;
  }
  const widths = columns.map((col) => Math.max(col.length, ...rows.map((r) => String(r[col] ?? "").length)));
  const line = (cells: string[]) => `${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ").trimEnd()}\n`;
  process.stdout.write(line(columns.map((c) => c.toUpperCase())));
  for (const row of rows) process.stdout.write(line(columns.map((c) => String(row[c] ?? ""))));
}

export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}\n`;
}
