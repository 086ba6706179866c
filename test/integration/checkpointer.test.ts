// WAL checkpoints on a background thread (src/db/checkpointer.ts): the server's connection only appends, a worker
// with its own connection copies the WAL into the database file; when the worker cannot run, the connection
// checkpoints by itself again.
import { until } from "../helpers/until.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CheckpointerReport } from "../../src/db/checkpoint-worker.ts";
import { SAFETY_NET_PAGES, startCheckpointer } from "../../src/db/checkpointer.ts";
import { openDb } from "../../src/db/client.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function database() {
  const dir = mkdtempSync(join(tmpdir(), "nearcast-checkpoint-"));
  dirs.push(dir);
  const path = join(dir, "nearcast.db");
  const sqlite = openDb(path).$client;
  sqlite.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)");
  return { path, sqlite };
}

const autocheckpoint = (sqlite: ReturnType<typeof database>["sqlite"]) =>
  (sqlite.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;


describe("the checkpointer thread", () => {
  test("copies what the server's connection commits; the connection keeps only a safety net meanwhile", async () => {
    const { path, sqlite } = database();
    const reports: CheckpointerReport[] = [];
    const logger = new MemoryLogger();
    const cp = startCheckpointer(sqlite, path, { everyMs: 20, logger, onReport: (r) => reports.push(r) });
    expect(await cp.ready).toBe(true);
    expect(autocheckpoint(sqlite)).toBe(SAFETY_NET_PAGES);
    const insert = sqlite.prepare("INSERT INTO t (payload) VALUES (?1)");
    for (let batch = 0; batch < 20; batch++) sqlite.transaction(() => {
      for (let i = 0; i < 50; i++) insert.run("x".repeat(500));
    })();
    await until(() => reports.some((r) => r.kind === "checkpointed"));
    const copied = reports.filter((r) => r.kind === "checkpointed").reduce((n, r) => n + (r.kind === "checkpointed" ? r.copied : 0), 0);
    expect(copied).toBeGreaterThan(100); // 1,000 rows of 500 bytes: well over 100 pages
    await cp.stop();
    expect(reports.at(-1)).toEqual({ kind: "stopped" });
    expect(autocheckpoint(sqlite)).toBe(1000);
    expect(logger.lines.filter((l) => l.startsWith("warn"))).toEqual([]);
    expect((sqlite.query("SELECT COUNT(*) AS n FROM t").get() as { n: number }).n).toBe(1000);
    sqlite.close();
  });

  test("a database the thread cannot open: a warning, and the connection checkpoints by itself", async () => {
    const { sqlite } = database();
    const logger = new MemoryLogger();
    const cp = startCheckpointer(sqlite, join(dirs[0]!, "no-such-dir", "x.db"), { everyMs: 20, logger });
    expect(await cp.ready).toBe(false);
    expect(autocheckpoint(sqlite)).toBe(1000);
    expect(logger.lines.some((l) => l.startsWith("warn") && l.includes("WAL checkpoints") && l.includes("checkpoints by itself"))).toBe(true);
    await cp.stop(); // harmless
    sqlite.close();
  });
});
