// WAL checkpoints on a background thread (src/db/checkpointer.ts): the server's connection only appends, a worker
// with its own connection copies the WAL into the database file; when the worker cannot run, the connection
// checkpoints by itself again.
import { until } from "../helpers/until.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
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

  test("once writes stop, the WAL file is truncated to nothing (not while a reader still holds an old snapshot)", async () => {
    const { path, sqlite } = database();
    const reports: CheckpointerReport[] = [];
    const cp = startCheckpointer(sqlite, path, { everyMs: 20, idleTicks: 5, logger: new MemoryLogger(), onReport: (r) => reports.push(r) });
    expect(await cp.ready).toBe(true);
    const insert = sqlite.prepare("INSERT INTO t (payload) VALUES (?1)");
    sqlite.transaction(() => {
      for (let i = 0; i < 4000; i++) insert.run("x".repeat(1000));
    })();
    const walSize = () => statSync(`${path}-wal`).size;
    expect(walSize()).toBeGreaterThan(4_000_000);
    // A reader in the middle of a read transaction: the WAL may be copied, but not truncated under it.
    const reader = new Database(path);
    reader.exec("BEGIN");
    reader.query("SELECT COUNT(*) FROM t").get();
    await until(() => reports.filter((r) => r.kind === "checkpointed").length >= 12, 5000, "quiet checkpoints");
    expect(reports.some((r) => r.kind === "truncated")).toBe(false);
    expect(walSize()).toBeGreaterThan(4_000_000);
    reader.exec("COMMIT");
    reader.close();
    await until(() => reports.some((r) => r.kind === "truncated"), 5000, "the WAL truncated");
    expect(walSize()).toBe(0);
    // Writing again simply grows it again, and the rows are all there.
    insert.run("after");
    expect((sqlite.query("SELECT COUNT(*) AS n FROM t").get() as { n: number }).n).toBe(4001);
    await cp.stop();
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

  test("runs the whole-file check when asked: a sound file, then one with a damaged page; none once stopped", async () => {
    const { path, sqlite } = database();
    const insert = sqlite.prepare("INSERT INTO t (payload) VALUES (?)");
    for (let i = 0; i < 2000; i++) insert.run("x".repeat(200));
    const cp = startCheckpointer(sqlite, path, { everyMs: 20, logger: new MemoryLogger() });
    expect(await cp.ready).toBe(true);
    expect(await cp.checkWholeFile()).toEqual({ state: "ok" });

    // Garbage over the table's last leaf: the quick look at a start would not reach it, quick_check does.
    sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const pageSize = (sqlite.query("PRAGMA page_size").get() as { page_size: number }).page_size;
    const leaves = sqlite.query("SELECT pageno FROM dbstat WHERE name = 't' AND pagetype = 'leaf' ORDER BY path").all() as { pageno: number }[];
    const fd = openSync(path, "r+");
    writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (leaves.at(-1)!.pageno - 1) * pageSize);
    closeSync(fd);
    expect(await cp.checkWholeFile()).toMatchObject({ state: "damaged", detail: expect.any(String) });

    await cp.stop();
    await expect(cp.checkWholeFile()).rejects.toThrow("the thread has ended");
    sqlite.close();
  });

  test("the check still answers when the thread could not open the file for checkpoints", async () => {
    const { sqlite } = database();
    const missing = join(dirs[0]!, "no-such-dir", "x.db");
    const cp = startCheckpointer(sqlite, missing, { everyMs: 20, logger: new MemoryLogger() });
    expect(await cp.ready).toBe(false);
    expect(await cp.checkWholeFile()).toEqual({ state: "unreadable", path: join(dirs[0]!, "no-such-dir") });
    await cp.stop();
    sqlite.close();
  });
});
