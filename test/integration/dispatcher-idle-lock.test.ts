// An idle dispatcher reads before it writes: while another process (a CLI import) holds the write lock, its turn
// (claim, completing finished broadcasts) must not wait for that lock, since a wait there blocks the server's event
// loop. Each test holds the lock from a second connection; busy_timeout 0 makes any write attempt fail at once.
import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { type AppContext, createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";

let ctx: AppContext;
let dir: string;
let other: Database;

function world() {
  dir = mkdtempSync(join(tmpdir(), "nearcast-idle-lock-"));
  ctx = createContext(loadConfig({ NEARCAST_QUIET_HOURS: "off" }, { dataDir: dir }), { logger: new MemoryLogger() });
  other = new Database(join(dir, "nearcast.db"));
}

afterEach(() => {
  other?.close();
  ctx?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("nothing due and nothing finished: claim and completeFinished answer at once without the write lock", () => {
  world();
  ctx.db.$client.exec("PRAGMA busy_timeout = 0");
  other.exec("BEGIN IMMEDIATE");
  const now = ctx.clock.now().getTime();
  expect(ctx.repos.deliveries.claim(now, 10)).toEqual([]);
  expect(ctx.repos.deliveries.completeFinished(now)).toEqual([]);
  other.exec("ROLLBACK");
});

test("with work to do, the same calls do take the lock (and so fail while another process holds it)", async () => {
  world();
  const owner = insertUser(ctx);
  const b = insertBusiness(ctx, { ownerId: owner.id });
  insertSubscriber(ctx, b.id);
  const res = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(b.id), messageText: "Hi", confirm: true });
  expect("recipients" in res && res.recipients).toBe(1);
  ctx.db.$client.exec("PRAGMA busy_timeout = 0");
  other.exec("BEGIN IMMEDIATE");
  const now = ctx.clock.now().getTime();
  expect(() => ctx.repos.deliveries.claim(now, 10)).toThrow(/locked|busy/i);
  other.exec("ROLLBACK");
  expect(ctx.repos.deliveries.claim(now, 10)).toHaveLength(1);
});
