import { Option } from "commander";
import { type ConfigOverrides, loadConfig } from "../src/config.ts";
import { createContext } from "../src/context.ts";
import { MemoryLogger } from "../src/lib/logger.ts";

/** --data-dir, shared by every command that opens the database. */
export const dataDirOption = () =>
  new Option("--data-dir <dir>", "folder holding nearcast.db and uploads (env NEARCAST_DATA_DIR)").default(
    undefined,
    "./data",
  );

/** A context for one-shot commands: quiet log, same database as the server. */
export function commandContext(overrides: ConfigOverrides) {
  return createContext(loadConfig(process.env, overrides), { logger: new MemoryLogger() });
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
