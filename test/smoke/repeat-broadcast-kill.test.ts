// Issue 10, item 8: a kill -9 during a confirmed repeat broadcast (the same text to the same people, minutes after the
// first) never mixes the two. The BUILT executable sends both through the Twilio adapter to the fake Twilio and is
// killed at random points while the second is going out, then restarted. After the last run, every delivery belongs
// to exactly one broadcast, and the provider message recorded on each delivery is one that was sent FOR it (its
// status callback URL names that delivery): the lookup after a kill matches by number and text, so without care the
// second broadcast's lost request would be "found" as the first broadcast's message and never sent.
import { Database } from "bun:sqlite";
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { DuplicateBroadcastError } from "../../src/services/broadcasts/repeat-check.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { fakeTwilioEnv, startBinary } from "../helpers/server.ts";
import { seedShop } from "../helpers/seed-shop.ts";
import { useFakeTwilioBinary } from "../helpers/smoke-fake-twilio-binary.ts";
import { until } from "../helpers/until.ts";

setDefaultTimeout(180_000);

const RECIPIENTS = 400;
const ROUNDS = 3;
const RATE = 200;
const TEXT = "Today only: a free coffee with any pastry!";

// Some requests are on the wire when the kill comes.
const world = useFakeTwilioBinary("nearcast-repeat-kill-", { latencyMs: 15 });

async function start(): Promise<Subprocess> {
  return (await startBinary({ ...fakeTwilioEnv(world.fake, RATE), NEARCAST_RECONCILE_AFTER: "1" }, world.dataDir, { binary: world.bin })).proc;
}

/** Two broadcasts of the same text to the same RECIPIENTS: the second confirmed after the repeat check refused it. */
function seed(): Promise<{ first: number; second: number }> {
  return seedShop(world.dataDir, { ownerEmail: "repeat-owner@example.com", businessName: "Repeat Cafe", subscribers: RECIPIENTS, firstNumber: 5000000 }, async (ctx, businessId) => {
  const input = { businessId: String(businessId), messageText: TEXT };
  const first = await ctx.services.broadcasts.publish(OPERATOR, input);
  const refused = await ctx.services.broadcasts.publish(OPERATOR, input).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(DuplicateBroadcastError);
  const second = await ctx.services.broadcasts.publish(OPERATOR, { ...input, confirm: true });
  if (!("broadcastId" in first) || !("broadcastId" in second)) throw new Error("nothing queued");
  return { first: first.broadcastId, second: second.broadcastId };
  });
}

test(`kill -9 during a confirmed repeat broadcast (${ROUNDS} random points): every delivery belongs to exactly one broadcast and holds its own message`, async () => {
  const { first, second } = await seed();
  const db = new Database(join(world.dataDir, "nearcast.db"));
  db.exec("PRAGMA busy_timeout = 5000");
  const settledOf = (id: number) =>
    (db.query("SELECT COUNT(*) AS n FROM deliveries WHERE broadcast_id = ?1 AND status IN ('Sent', 'Delivered')").get(id) as { n: number }).n;
  const sendingPhones = () => (db.query("SELECT to_phone AS p FROM deliveries WHERE status = 'Sending'").all() as { p: string }[]).map((r) => r.p);

  const inFlight = new Set<string>();
  const windows: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const proc = await start();
    // Kill while the second broadcast is going out.
    await until(() => settledOf(first) === RECIPIENTS && settledOf(second) > 10 + round * 60, 30_000, "the second broadcast to be under way");
    await Bun.sleep(Math.floor(Math.random() * 120));
    proc.kill("SIGKILL");
    await proc.exited;
    await Bun.sleep(50);
    const phones = sendingPhones();
    windows.push(phones.length);
    for (const p of phones) inFlight.add(p);
  }
  const last = await start();
  await until(
    () => (db.query("SELECT COUNT(*) AS n FROM broadcasts WHERE completed_at IS NULL").get() as { n: number }).n === 0,
    60_000,
    "both broadcasts to complete",
  );
  last.kill("SIGTERM");
  await last.exited;

  const rows = db.query("SELECT id, broadcast_id AS b, to_phone AS phone, status, provider_id AS sid FROM deliveries ORDER BY id").all() as {
    id: number;
    b: number;
    phone: string;
    status: string;
    sid: string | null;
  }[];
  db.close();
  // Every recipient: one delivery in each broadcast, no more.
  expect(rows).toHaveLength(2 * RECIPIENTS);
  const perPhone = new Map<string, number[]>();
  for (const r of rows) perPhone.set(r.phone, [...(perPhone.get(r.phone) ?? []), r.b]);
  expect([...perPhone.values()].filter((bs) => bs.toSorted().join() !== [first, second].join())).toEqual([]);
  expect(rows.filter((r) => r.status !== "Sent" && r.status !== "Delivered")).toEqual([]);

  // Each delivery holds a provider message sent for IT (its status callback names the delivery), and no message is
  // held by two deliveries.
  const messages = new Map([...world.fake.messages.values()].map((m) => [m.sid, m]));
  const deliveryOf = (sid: string | null) => Number(/delivery=(\d+)/.exec(messages.get(sid ?? "")?.statusCallback ?? "")?.[1] ?? 0);
  expect(rows.filter((r) => deliveryOf(r.sid) !== r.id).map((r) => ({ id: r.id, broadcast: r.b, holds: deliveryOf(r.sid) }))).toEqual([]);
  expect(new Set(rows.map((r) => r.sid)).size).toBe(rows.length);

  // Everyone got exactly two messages, except that a request on the wire at a kill may have gone out twice.
  const count = new Map<string, number>();
  for (const m of world.fake.messages.values()) count.set(m.to, (count.get(m.to) ?? 0) + 1);
  expect([...perPhone.keys()].filter((p) => (count.get(p) ?? 0) < 2)).toEqual([]);
  expect([...perPhone.keys()].filter((p) => (count.get(p) ?? 0) > 2 && !inFlight.has(p))).toEqual([]);
  console.log(`repeat broadcast kill -9: ${windows.length} kills during the second broadcast; in flight per kill: ${windows.join(", ")}`);
});
