// Issue 21 item 6 (/api/health stalled 1.0-1.4 s beside a CLI import): the dispatcher never waits for another
// connection's write lock inside the event loop. Its store runs with busy_timeout 0 (src/db/client.ts
// withoutBusyWait): a write that meets the lock fails at once and is tried again a moment later, without an error
// line; once the lock is let go, every message goes out once. (The numbers are in bench/README.md, issue 21.)
import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { type AppContext, createContext } from "../../src/context.ts";
import { withoutBusyWait } from "../../src/db/client.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { until } from "../helpers/until.ts";
import { queuedBroadcast } from "../helpers/worlds.ts";

let ctx: AppContext;
let dir: string;
let other: Database;
let logger: MemoryLogger;

function world() {
  dir = mkdtempSync(join(tmpdir(), "nearcast-dispatcher-busy-"));
  logger = new MemoryLogger();
  ctx = createContext(loadConfig({ NEARCAST_QUIET_HOURS: "off", NEARCAST_MAX_PER_DAY: "0", NEARCAST_SEND_RATE: "50" }, { dataDir: dir }), { logger });
  other = new Database(join(dir, "nearcast.db"));
}

afterEach(() => {
  other?.close();
  ctx?.close();
  rmSync(dir, { recursive: true, force: true });
});

const busyTimeout = () => (ctx.db.$client.query("PRAGMA busy_timeout").get() as { timeout: number }).timeout;

test("a wrapped store write meets another connection's lock: SQLITE_BUSY at once; the connection's wait is 5 s again after", () => {
  world();
  const store = withoutBusyWait(ctx.db.$client, { write: () => ctx.db.$client.exec("INSERT OR REPLACE INTO settings (key, value, updated_at) VALUES ('probe', 'x', 0)") });
  other.exec("BEGIN IMMEDIATE");
  try {
    expect(() => store.write()).toThrow(/database is locked/);
    expect(busyTimeout()).toBe(5000);
  } finally {
    other.exec("ROLLBACK");
  }
  store.write();
  expect(busyTimeout()).toBe(5000);
});

test("a dispatcher started while another connection holds the write lock: no error, the loop keeps turning, all sent once after", async () => {
  world();
  const res = await queuedBroadcast(ctx, 3, { text: "Rye at noon" });

  other.exec("BEGIN IMMEDIATE");
  const d = ctx.dispatcherWith();
  let turns = 0;
  const ticker = setInterval(() => turns++, 1);
  // start() makes its first write (recovering sends cut short) before it returns: it meets the lock. Waiting for
  // it would hold this thread 5 s and then stop the dispatcher ("database is locked").
  d.start();
  try {
    await until(() => turns >= 20, 5_000, "the event loop turning while the lock is held");
    expect(d.stats.started).toBe(0);
    other.exec("ROLLBACK");
    await until(() => ctx.repos.broadcasts.findById(res.broadcastId)?.completedAt != null, 10_000, "the broadcast");
  } finally {
    clearInterval(ticker);
    if (other.inTransaction) other.exec("ROLLBACK");
    await d.stop();
  }
  expect(d.stats.sent).toBe(3);
  expect(ctx.repos.deliveries.listByBroadcast(res.broadcastId).map((r) => r.status)).toEqual(["Sent", "Sent", "Sent"]);
  expect(logger.lines.filter((l) => l.startsWith("error") || l.startsWith("warn"))).toEqual([]);
  expect(busyTimeout()).toBe(5000);
}, 30_000);
