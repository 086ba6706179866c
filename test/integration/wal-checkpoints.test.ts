// WAL checkpoints are SQLite's own: the connection `serve` uses copies the WAL back into the database file at the
// default threshold, so the -wal file stays bounded however much is written (nothing raises wal_autocheckpoint).
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";

const SQLITE_DEFAULT_PAGES = 1000;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

test("the app's connection checkpoints by itself at SQLite's default, so the WAL stays bounded", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "nearcast-wal-"));
  dirs.push(dataDir);
  const ctx = createContext(loadConfig({}, { dataDir }), { logger: new MemoryLogger() });
  try {
    const sqlite = ctx.db.$client;
    expect(sqlite.query("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: SQLITE_DEFAULT_PAGES });
    const pageSize = (sqlite.query("PRAGMA page_size").get() as { page_size: number }).page_size;
    // Three times the threshold, in transactions of about 100 pages each.
    sqlite.exec("CREATE TABLE wal_filler (body BLOB)");
    const insert = sqlite.prepare("INSERT INTO wal_filler (body) VALUES (?)");
    const fill = sqlite.transaction(() => {
      for (let i = 0; i < 100; i++) insert.run(new Uint8Array(pageSize - 100));
    });
    for (let t = 0; t < 30; t++) fill();
    const walPages = statSync(`${ctx.dbPath}-wal`).size / pageSize;
    expect(walPages).toBeLessThan(SQLITE_DEFAULT_PAGES * 1.5);
    expect(statSync(ctx.dbPath).size / pageSize).toBeGreaterThan(SQLITE_DEFAULT_PAGES * 2.5);
  } finally {
    ctx.close();
  }
});
