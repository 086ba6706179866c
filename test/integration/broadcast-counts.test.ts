// Issue 12 item 4: a broadcast's progress is read from broadcast_counts, which triggers on deliveries keep in the
// same transaction as every write. Whatever happens to the rows, the counts equal a COUNT ... GROUP BY of them.
// Not the scenario runner: the counts are checked across many writes and a dispatcher run, not one request.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { openDb } from "../../src/db/client.ts";
import { embeddedMigrations, migrate } from "../../src/db/migrate.ts";
import { apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertSubscriber, sessionFor } from "../helpers/customer-factories.ts";
import { insertBroadcast, insertCustomer, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";
import { until } from "../helpers/until.ts";
import { broadcastIn } from "../helpers/worlds.ts";

type Sqlite = TestContext["db"]["$client"];
const REASON = "CASE WHEN status = 'Queued' THEN coalesce(deferred_reason, '') ELSE '' END";

/** The truth, counted from the rows. */
const counted = (sqlite: Sqlite) =>
  sqlite.query(`SELECT broadcast_id AS b, status AS s, ${REASON} AS r, COUNT(*) AS n FROM deliveries GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`).all();
/** What the triggers kept (a count that went back to 0 stays as a row of 0). */
const kept = (sqlite: Sqlite) => sqlite.query("SELECT broadcast_id AS b, status AS s, reason AS r, n FROM broadcast_counts WHERE n <> 0 ORDER BY 1, 2, 3").all();

let ctx: TestContext | undefined;
afterEach(() => ctx?.close());

describe("broadcast_counts follow every write to deliveries", () => {
  test("600 random inserts, status and reason changes, deletes and cascades: the counts equal the rows' after each step", () => {
    ctx = testContext();
    const sqlite = ctx.db.$client;
    const business = insertBusiness(ctx);
    const casts = [1, 2, 3].map(() => insertBroadcast(ctx!, { businessId: business.id }));
    let people = Array.from({ length: 40 }, () => insertCustomer(ctx!));
    const statuses = ["Queued", "Sending", "Uncertain", "Sent", "Delivered", "Failed", "Skipped"] as const;
    const reasons = [null, "quiet_hours", "daily_limit", "confirmation_cap"] as const;
    // mulberry32: a seeded walk, the same on every run.
    let seed = 12;
    const rand = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return (((t ^ (t >>> 14)) >>> 0) % n);
    };
    const pick = <T,>(xs: readonly T[]) => xs[rand(xs.length)]!;
    const someDelivery = () => sqlite.query("SELECT id FROM deliveries ORDER BY id LIMIT 1 OFFSET ?").get(rand(50)) as { id: number } | null;
    let inserted = 0;
    for (let step = 0; step < 600; step++) {
      const op = rand(10);
      if (op === 9 && rand(3) > 0) continue; // people are erased less often than rows change
      const d = someDelivery();
      if (op < 4 || !d) {
        const b = pick(casts);
        const c = pick(people);
        inserted += sqlite.run(
          "INSERT OR IGNORE INTO deliveries (broadcast_id, customer_id, business_id, channel, to_phone, status, next_attempt_at, deferred_reason) VALUES (?, ?, ?, 'SMS', ?, ?, 0, ?)",
          [b.id, c.id, business.id, c.phone, pick(statuses), pick(reasons)],
        ).changes;
      } else if (op < 7) sqlite.run("UPDATE deliveries SET status = ? WHERE id = ?", [pick(statuses), d.id]);
      else if (op < 8) sqlite.run("UPDATE deliveries SET deferred_reason = ? WHERE id = ?", [pick(reasons), d.id]);
      else if (op < 9) sqlite.run("DELETE FROM deliveries WHERE id = ?", [d.id]);
      else {
        // Erasing a person removes their deliveries by the foreign key's cascade.
        const gone = pick(people);
        sqlite.run("DELETE FROM customers WHERE id = ?", [gone.id]);
        people = people.filter((p) => p.id !== gone.id);
        if (people.length < 5) people.push(insertCustomer(ctx));
      }
      expect(kept(sqlite)).toEqual(counted(sqlite));
    }
    // The walk did write: many rows came and went, and some are left.
    expect(inserted).toBeGreaterThan(100);
    expect((sqlite.query("SELECT COUNT(*) AS n FROM deliveries").get() as { n: number }).n).toBeGreaterThan(5);
    // A broadcast that goes takes its counts with it.
    sqlite.run("DELETE FROM broadcasts WHERE id = ?", [casts[0]!.id]);
    expect(sqlite.query("SELECT COUNT(*) AS n FROM broadcast_counts WHERE broadcast_id = ?").get(casts[0]!.id)).toEqual({ n: 0 });
    expect(kept(sqlite)).toEqual(counted(sqlite));
  });

  test("a real broadcast: published, held by quiet hours, sent by the dispatcher, reported, retried; GetBroadcastStatus reads the counts", async () => {
    ctx = testContext({ NEARCAST_QUIET_HOURS: "off", NEARCAST_SEND_RATE: "100", NEARCAST_MAX_PER_DAY: "0" });
    const sqlite = ctx.db.$client;
    const owner = insertUser(ctx);
    const business = insertBusiness(ctx, { ownerId: owner.id });
    for (let i = 0; i < 30; i++) insertSubscriber(ctx, business.id, { phone: `+1415555${String(2000 + i)}` });
    const { id } = await broadcastIn(ctx, "queued", { businessId: business.id, text: "Fresh bread", as: owner });
    expect(kept(sqlite)).toEqual([{ b: id, s: "Queued", r: "", n: 30 }]);
    // Ten held back for quiet hours (the claim writes the reason), then released.
    sqlite.run("UPDATE deliveries SET deferred_reason = 'quiet_hours' WHERE id IN (SELECT id FROM deliveries WHERE broadcast_id = ? LIMIT 10)", [id]);
    expect(ctx.services.broadcasts.status(owner, id)).toMatchObject({ queued: 30, waiting: { quietHours: 10, dailyLimit: 0 } });
    expect(kept(sqlite)).toEqual(counted(sqlite));
    sqlite.run("UPDATE deliveries SET deferred_reason = NULL WHERE broadcast_id = ?", [id]);

    // The dispatcher sends them all (the sandbox answers Sent); a few fail on the way.
    const d = ctx.dispatcherWith();
    d.start();
    try {
      await until(() => ctx!.repos.broadcasts.findById(id)?.completedAt != null, 10_000, "the broadcast sent");
    } finally {
      await d.stop();
    }
    expect(kept(sqlite)).toEqual(counted(sqlite));
    // Status callbacks: some delivered, some failed; then the failed ones go back to the queue.
    sqlite.run("UPDATE deliveries SET status = 'Delivered' WHERE id IN (SELECT id FROM deliveries WHERE broadcast_id = ? LIMIT 20)", [id]);
    sqlite.run("UPDATE deliveries SET status = 'Failed', error_code = 30003 WHERE broadcast_id = ? AND status = 'Sent'", [id]);
    expect(kept(sqlite)).toEqual(counted(sqlite));
    const api = apiClient(ctx);
    const token = sessionFor(ctx, owner);
    const status = await api.get(`/api/business/GetBroadcastStatus?id=${id}`, { token });
    expect(status.body).toMatchObject({ total: 30, queued: 0, sent: 0, delivered: 20, failed: 10 });
    expect(ctx.services.broadcasts.retryFailed(owner, id).requeued).toBe(10);
    expect(kept(sqlite)).toEqual(counted(sqlite));
    expect((await api.get(`/api/business/GetBroadcastStatus?id=${id}`, { token })).body).toMatchObject({ queued: 10, delivered: 20, failed: 0 });
    // A customer erased: their delivery leaves the counts with them.
    sqlite.run("DELETE FROM customers WHERE id = (SELECT customer_id FROM deliveries WHERE broadcast_id = ? AND status = 'Delivered' LIMIT 1)", [id]);
    expect((await api.get(`/api/business/GetBroadcastStatus?id=${id}`, { token })).body).toMatchObject({ delivered: 19 });
    expect(kept(sqlite)).toEqual(counted(sqlite));
  });
});

test("migration 0011 counts the deliveries a database already has", () => {
  const dir = mkdtempSync(join(tmpdir(), "nearcast-counts-"));
  const file = join(dir, "nearcast.db");
  try {
    const old = openDb(file);
    const internal = old as unknown as { dialect: { migrate(m: MigrationMeta[], s: unknown, c: { migrationsFolder: string }): void }; session: unknown };
    const upTo0010 = embeddedMigrations().slice(0, 11);
    internal.dialect.migrate(upTo0010, internal.session, { migrationsFolder: "(embedded)" });
    old.$client.exec(`
      INSERT INTO users (id, email, first_name, last_name, password_hash) VALUES (1, 'a@example.com', 'A', 'Owner', 'x');
      INSERT INTO business_types (id, name) VALUES (900, 'Counts test type');
      INSERT INTO businesses (id, owner_id, business_type_id, name, address, phone, sample_product_text) VALUES (1, 1, 900, 'Bakery', '1 Main St', '+14155550100', 'Bread');
      INSERT INTO customers (id, phone, created_at) VALUES (1, '+14155550101', 0), (2, '+14155550102', 0), (3, '+14155550103', 0);
      INSERT INTO broadcasts (id, business_id, message_text, total, created_at) VALUES (1, 1, 'Hi', 3, 0);
      INSERT INTO deliveries (broadcast_id, customer_id, business_id, channel, to_phone, status, next_attempt_at, deferred_reason) VALUES
        (1, 1, 1, 'SMS', '+14155550101', 'Queued', 0, 'quiet_hours'), (1, 2, 1, 'SMS', '+14155550102', 'Sent', 0, NULL),
        (1, 3, 1, 'SMS', '+14155550103', 'Sent', 0, 'daily_limit');
    `);
    expect(old.$client.query("SELECT name FROM sqlite_master WHERE name = 'broadcast_counts'").get()).toBeNull();
    old.$client.close();
    const db = openDb(file);
    migrate(db);
    expect(kept(db.$client)).toEqual([
      { b: 1, s: "Queued", r: "quiet_hours", n: 1 },
      { b: 1, s: "Sent", r: "", n: 2 },
    ]);
    db.$client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
