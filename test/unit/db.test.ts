import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../src/db/client.ts";
import { embeddedMigrations, migrate } from "../../src/db/migrate.ts";
import { journal, migrationSql } from "../../migrations/index.ts";

const MIGRATIONS_DIR = join(import.meta.dir, "..", "..", "migrations");

test("every SQL file in migrations/ is in the journal and embedded with identical text", () => {
  const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith(".sql")).sort();
  expect(files.map((f) => f.replace(/\.sql$/, ""))).toEqual(journal.entries.map((e) => e.tag));
  for (const f of files) {
    expect(migrationSql[f.replace(/\.sql$/, "")]).toBe(readFileSync(join(MIGRATIONS_DIR, f), "utf8"));
  }
  expect(embeddedMigrations()).toHaveLength(files.length);
});

test("a file database is opened in WAL mode with the required PRAGMAs, and migrating twice is harmless", () => {
  const dir = mkdtempSync(join(tmpdir(), "nearcast-db-"));
  try {
    const db = openDb(join(dir, "nearcast.db"));
    const pragma = (name: string) => Object.values(db.$client.query(`PRAGMA ${name}`).get() as object)[0];
    expect(pragma("journal_mode")).toBe("wal");
    expect(pragma("foreign_keys")).toBe(1);
    expect(pragma("busy_timeout")).toBe(5000);
    expect(pragma("synchronous")).toBe(1);
    migrate(db);
    migrate(db);
    const applied = db.$client.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
    expect(applied.n).toBe(journal.entries.length);
    const tables = (db.$client.query("SELECT name FROM sqlite_master WHERE type='table'").all() as { name: string }[]).map((t) => t.name);
    for (const t of ["users", "sessions", "password_resets", "business_types", "businesses", "customers", "subscriptions", "consent_events", "uploads"]) {
      expect(tables).toContain(t);
    }
    db.$client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("foreign keys are enforced", () => {
  const db = openDb(":memory:");
  migrate(db);
  expect(() =>
    db.$client.run("INSERT INTO sessions (user_id, token_hash, expires_at) VALUES (999, 'x', 0)"),
  ).toThrow(/FOREIGN KEY/);
  db.$client.close();
});
