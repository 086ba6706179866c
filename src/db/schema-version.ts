// Which schema a database file has: the number of migrations applied to it (drizzle's __drizzle_migrations table),
// against the number this executable carries. Upgrades are explicit (serve, `nearcast migrate`), downgrades refused.
import type { Database } from "bun:sqlite";
import { journal } from "../../migrations/index.ts";

/** The schema this executable writes: its migrations, counted. */
export const KNOWN_SCHEMA = journal.entries.length;

/** The schema of the open database: 0 for a new (empty) file. */
export function appliedSchema(sqlite: Database): number {
  const table = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!table) return 0;
  return (sqlite.query("SELECT COUNT(*) AS n FROM __drizzle_migrations").get() as { n: number }).n;
}
