// Issue 26 item 2: `serve` starts after a quick look at the database (header, schema, the first rows of each table)
// and reads every page in the background once it answers. A real SQLite file with one damaged page that the quick
// look does not reach: the built executable starts and answers, then stops sending, logs why, and the admin's
// checklist has a red line pointing at restore. (The damaged-header and damaged-root tests of
// test/integration/backup-restore.test.ts and test/smoke/busy-database.test.ts: serve still refuses those.)
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { sessionFor } from "../helpers/customer-factories.ts";
import { insertUser } from "../helpers/factories.ts";
import { seedShop } from "../helpers/seed-shop.ts";
import { privateBinary, startBinary } from "../helpers/server.ts";
import { until } from "../helpers/until.ts";

const { work, bin, dataDir } = privateBinary("nearcast-whole-file-check-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Garbage over one page of `table` that is not on the way to its first row: its last leaf. */
function damageLastLeaf(dbFile: string, table: string): number {
  const db = new Database(dbFile);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const pageSize = (db.query("PRAGMA page_size").get() as { page_size: number }).page_size;
  const leaves = db.query("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path").all(table) as { pageno: number }[];
  db.close();
  expect(leaves.length).toBeGreaterThan(2);
  const page = leaves.at(-1)!.pageno;
  const fd = openSync(dbFile, "r+");
  writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (page - 1) * pageSize);
  closeSync(fd);
  return page;
}

test("one damaged page: serve starts and answers, then stops sending, logs it and shows it on the checklist", async () => {
  const token = await seedShop(dataDir, { ownerEmail: "owner@example.com", businessName: "Corner Bakery", subscribers: 2000, firstNumber: 5_550_000 }, (ctx) =>
    sessionFor(ctx, insertUser(ctx, { role: "admin", email: "admin@example.com" })),
  );
  const dbFile = join(dataDir, "nearcast.db");
  damageLastLeaf(dbFile, "customers");

  const server = await startBinary({ NEARCAST_LOG_LEVEL: "info" }, dataDir, { binary: bin });
  try {
    const first = await fetch(`${server.url}/api/health`);
    expect((await first.json()) as object).toMatchObject({ version: expect.any(String), database: "ok" });

    // The background check finds the page: the dispatcher stops (health says so, 503), the server keeps answering.
    let health: { status: number; body: { status?: string; dispatcher?: { state: string } } } = { status: 0, body: {} };
    await until(async () => {
      const res = await fetch(`${server.url}/api/health`);
      health = { status: res.status, body: (await res.json()) as typeof health.body };
      return health.body.dispatcher?.state === "stopped";
    }, 15_000, "the dispatcher stopped");
    expect(health).toMatchObject({ status: 503, body: { status: "error", dispatcher: { state: "stopped" } } });

    expect(server.log()).toMatch(
      new RegExp(`database check: ${dbFile.replaceAll("/", "\\/")} is damaged \\(quick_check: [^\\n]+\\); sending stopped: restore a backup with \`nearcast restore FILE --data-dir ${dataDir.replaceAll("/", "\\/")}\``),
    );

    const res = await fetch(`${server.url}/api/settings/Checklist`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const { items } = (await res.json()) as { items: { id: string; status: string; title: string; detail: string }[] };
    const line = items.find((i) => i.id === "database");
    expect(line).toMatchObject({ status: "red", title: "Database damaged: sending stopped" });
    expect(line!.detail).toContain(`Nothing is sent until you restore a backup with \`nearcast restore FILE --data-dir ${dataDir}\``);
  } finally {
    await server.stop();
  }
}, 60_000);
