// Issue 12 item 3/4: a broadcast's deliveries are written a chunk (ENQUEUE_CHUNK subscriptions) per durable
// transaction, so the server answers between them. Nothing of a broadcast is sent before all of it is written; a
// publish that fails half-way takes it all back; a process that dies half-way leaves enqueued_through, and the
// dispatcher goes on from there.
import { afterEach, describe, expect, test } from "bun:test";
import { ENQUEUE_CHUNK } from "../../src/repos/sql/enqueue.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertManySubscribers } from "../helpers/customer-factories.ts";
import { until } from "../helpers/until.ts";
import { shopWithSubscribers } from "../helpers/worlds.ts";

let ctx: TestContext;
afterEach(() => ctx?.close());

const PEOPLE = ENQUEUE_CHUNK * 2 + 500; // three chunks
const sqlite = () => ctx.db.$client;
const deliveriesOf = (id: number) =>
  sqlite().query("SELECT COUNT(*) AS n, COUNT(DISTINCT customer_id) AS people FROM deliveries WHERE broadcast_id = ?").get(id) as { n: number; people: number };
const broadcastRow = (id: number) =>
  sqlite().query("SELECT total, enqueued_through AS through, completed_at AS completedAt FROM broadcasts WHERE id = ?").get(id) as {
    total: number;
    through: number | null;
    completedAt: number | null;
  } | null;

function shop() {
  ctx = testContext({ NEARCAST_QUIET_HOURS: "off", NEARCAST_MAX_PER_DAY: "0", NEARCAST_SEND_RATE: "1000" });
  const { business } = shopWithSubscribers(ctx, 0);
  insertManySubscribers(ctx, business.id, PEOPLE, 3_000_000);
  return business;
}

describe("a publish writes its deliveries a chunk at a time", () => {
  test(`${PEOPLE.toLocaleString("en-US")} subscribers: three chunks, then one durable commit; one delivery each, the total, nothing left to enqueue`, async () => {
    const business = shop();
    const durable: string[] = [];
    const exec = sqlite().exec.bind(sqlite());
    sqlite().exec = ((sql: string) => {
      if (sql === "PRAGMA synchronous = FULL") durable.push(sql);
      return exec(sql);
    }) as typeof exec;
    const chunks: number[] = [];
    const original = ctx.repos.deliveries.enqueueNextChunk;
    ctx.repos.deliveries.enqueueNextChunk = (id, now, size) => {
      const step = original(id, now, size);
      chunks.push(step.written);
      return step;
    };
    let res: { broadcastId: number; recipients: number };
    try {
      res = (await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(business.id), messageText: "Big sale" })) as typeof res;
    } finally {
      sqlite().exec = exec;
      ctx.repos.deliveries.enqueueNextChunk = original;
    }
    expect(res.recipients).toBe(PEOPLE);
    expect(chunks).toEqual([ENQUEUE_CHUNK, ENQUEUE_CHUNK, 500]);
    expect(durable.length).toBe(2); // the broadcast row, and the commit after the last chunk
    expect(deliveriesOf(res.broadcastId)).toEqual({ n: PEOPLE, people: PEOPLE });
    expect(broadcastRow(res.broadcastId)).toMatchObject({ total: PEOPLE, through: null });
    expect(ctx.services.broadcasts.status(OPERATOR, res.broadcastId)).toMatchObject({ total: PEOPLE, queued: PEOPLE });
  });

  test("other work runs between the chunks (the event loop is free), not after the whole enqueue", async () => {
    const business = shop();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const chunksSeen: number[] = [];
    const original = ctx.repos.deliveries.enqueueNextChunk;
    ctx.repos.deliveries.enqueueNextChunk = (id, now, size) => {
      chunksSeen.push(ticks);
      const step = original(id, now, size);
      // A chunk as long as on a Pi's SD card: the ticker's timer is due by the time the chunk ends.
      for (const t0 = performance.now(); performance.now() - t0 < 3; );
      return step;
    };
    try {
      await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(business.id), messageText: "Big sale" });
    } finally {
      clearInterval(ticker);
      ctx.repos.deliveries.enqueueNextChunk = original;
    }
    expect(chunksSeen.length).toBe(3);
    // A due timer ran before the last chunk, not after the whole enqueue. (Between two chunks the server gets a
    // turn for its I/O; Bun may leave a timer that became due meanwhile for the turn after.)
    expect(chunksSeen[2]!).toBeGreaterThan(chunksSeen[0]!);
  });

  test("a failure in the second chunk takes back the first: no broadcast, no delivery; the same publish then works", async () => {
    const business = shop();
    const victim = sqlite().query("SELECT customer_id AS id FROM subscriptions WHERE business_id = ? ORDER BY id LIMIT 1 OFFSET ?").get(business.id, ENQUEUE_CHUNK + 10) as { id: number };
    sqlite().run(`CREATE TEMP TRIGGER fail_second_chunk BEFORE INSERT ON deliveries WHEN NEW.customer_id = ${victim.id} BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
    try {
      await expect(ctx.services.broadcasts.publish(OPERATOR, { businessId: String(business.id), messageText: "Big sale" })).rejects.toThrow("disk on fire");
    } finally {
      sqlite().run("DROP TRIGGER fail_second_chunk");
    }
    expect(sqlite().query("SELECT COUNT(*) AS n FROM broadcasts").get()).toEqual({ n: 0 });
    expect(sqlite().query("SELECT COUNT(*) AS n FROM deliveries").get()).toEqual({ n: 0 });
    expect(sqlite().query("SELECT COUNT(*) AS n FROM broadcast_counts WHERE n <> 0").get()).toEqual({ n: 0 });
    const again = (await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(business.id), messageText: "Big sale" })) as { recipients: number };
    expect(again.recipients).toBe(PEOPLE);
  });
});

describe("a broadcast half written", () => {
  test("is never claimed before it is whole; after a crash the dispatcher writes the rest, then sends each person one message", async () => {
    const business = shop();
    const now = ctx.clock.now().getTime();
    // A publish that died after its first chunk: the row, ENQUEUE_CHUNK deliveries, enqueued_through set.
    const id = ctx.repos.broadcasts.insert({ businessId: business.id, createdBy: null, messageText: "Cut short", imagePath: null, createdAt: now });
    expect(ctx.repos.deliveries.enqueueNextChunk(id, now)).toEqual({ written: ENQUEUE_CHUNK, done: false, total: ENQUEUE_CHUNK });
    expect(broadcastRow(id)!.through).not.toBeNull();
    expect(ctx.repos.deliveries.claim(now + 1, 50)).toEqual([]);
    expect(ctx.repos.deliveries.completeFinished(now + 1)).toEqual([]);
    expect(ctx.repos.deliveries.pendingEnqueues()).toEqual([id]);

    // The next start: the dispatcher goes on from enqueued_through, then sends (the sandbox records them).
    const d = ctx.dispatcherWith();
    d.start();
    try {
      await until(() => broadcastRow(id)?.completedAt != null, 20_000, "the broadcast sent");
    } finally {
      await d.stop();
    }
    expect(broadcastRow(id)).toMatchObject({ total: PEOPLE, through: null });
    expect(deliveriesOf(id)).toEqual({ n: PEOPLE, people: PEOPLE });
    // Every one went to the provider (the sandbox reports most delivered, and fails numbers ending in 0000).
    const settled = sqlite().query("SELECT COUNT(*) AS n FROM deliveries WHERE broadcast_id = ? AND status IN ('Sent', 'Delivered', 'Failed')").get(id);
    expect(settled).toEqual({ n: PEOPLE });
    expect(ctx.logger.lines.join("\n")).toContain(`broadcast ${id} queued (${PEOPLE} message(s))`);
  }, 30_000);
});
