import { createHash } from "node:crypto";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { journal, migrationSql } from "../../migrations/index.ts";
import type { Db } from "./client.ts";

// drizzle's migrator reads the folder from disk; this builds the same input from the embedded SQL.
export function embeddedMigrations(): MigrationMeta[] {
  return journal.entries.map((entry) => {
    const query = migrationSql[entry.tag];
    if (query === undefined) throw new Error(`Migration ${entry.tag} is missing from migrations/index.ts`);
    return {
      sql: query.split("--> statement-breakpoint"),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: createHash("sha256").update(query).digest("hex"),
    };
  });
}

// dialect and session are drizzle internals (what its own bun-sqlite migrator uses), not in the public type.
interface MigratableDb {
  dialect: { migrate(m: MigrationMeta[], session: unknown, config: { migrationsFolder: string }): void };
  session: unknown;
}

/** Applies the migrations not yet applied; `upTo` only the first that many (tests build older databases with it). */
export function migrate(db: Db, upTo?: number): void {
  const internal = db as unknown as MigratableDb;
  internal.dialect.migrate(embeddedMigrations().slice(0, upTo), internal.session, { migrationsFolder: "(embedded)" });
}
