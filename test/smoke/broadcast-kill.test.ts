// kill -9 the BUILT executable in the middle of a 1,000-recipient broadcast sent through the Twilio adapter to
// the fake Twilio (TWILIO_API_BASE), restart it, repeat at random points, and check that every recipient got
// exactly one message, apart from the in-flight window: the deliveries that were Sending when the process died
// (the only ones whose fate the restarted dispatcher has to ask the provider about). The window is reported.
import { Database } from "bun:sqlite";
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { AppContext } from "../../src/context.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { fakeTwilioEnv, type RunningBinary, startBinary } from "../helpers/server.ts";
import { seedShop } from "../helpers/seed-shop.ts";
import { useFakeTwilioBinary } from "../helpers/smoke-fake-twilio-binary.ts";
import { until } from "../helpers/until.ts";

setDefaultTimeout(180_000);

const RECIPIENTS = 1000;
const ROUNDS = 4;
const RATE = 200;
const TEXT = "Flash sale: 30% off everything until 6pm!";
const SMS_FROM = "+15550001111";

// A request takes a while at "Twilio": some are on the wire when the kill comes.
const world = useFakeTwilioBinary("nearcast-kill-", { latencyMs: 15 });

function start(): Promise<RunningBinary> {
  return startBinary({ ...fakeTwilioEnv(world.fake, RATE, SMS_FROM), NEARCAST_RECONCILE_AFTER: "1" }, world.dataDir, { binary: world.bin });
}

const seed = <T>(then: (ctx: AppContext, businessId: number) => T | Promise<T>) =>
  seedShop(world.dataDir, { ownerEmail: "kill-owner@example.com", businessName: "Kill Test Deli", subscribers: RECIPIENTS, firstNumber: 3000000 }, then);

test(`kill -9 mid-broadcast (${ROUNDS} random points), restart: every recipient gets exactly one message outside the in-flight window`, async () => {
  const published = await seed((ctx, businessId) => ctx.services.broadcasts.publish(OPERATOR, { businessId: String(businessId), messageText: TEXT }));
  expect(published).toMatchObject({ recipients: RECIPIENTS });
  const broadcastId = (published as { broadcastId: number }).broadcastId;

  const db = new Database(join(world.dataDir, "nearcast.db"));
  db.exec("PRAGMA busy_timeout = 5000");
  const count = (status: string) =>
    (db.query("SELECT COUNT(*) AS n FROM deliveries WHERE broadcast_id = ?1 AND status = ?2").get(broadcastId, status) as { n: number }).n;
  const sendingPhones = () =>
    (db.query("SELECT to_phone AS phone FROM deliveries WHERE broadcast_id = ?1 AND status = 'Sending'").all(broadcastId) as { phone: string }[]).map(
      (r) => r.phone,
    );
  const messagesTo = () => {
    const m = new Map<string, number>();
    for (const msg of world.fake.messages.values()) m.set(msg.to, (m.get(msg.to) ?? 0) + 1);
    return m;
  };

  const windows: { sending: number; atProvider: number }[] = [];
  const inFlight = new Set<string>();
  /** What each restarted server said it found in flight (0 when it said nothing). */
  const recoveredLogged: number[] = [];
  const recovered = (log: string) => Number(/(\d+) message\(s\) were being sent when the previous dispatcher stopped/.exec(log)?.[1] ?? 0);
  const started = Date.now();
  for (let round = 0; round < ROUNDS; round++) {
    const server = await start();
    const before = world.fake.sends().length;
    // Let it get going, then kill it at a random moment.
    await until(() => world.fake.sends().length > before + 10, 20_000, "the server to start sending");
    await Bun.sleep(30 + Math.floor(Math.random() * 500));
    server.proc.kill("SIGKILL");
    await server.proc.exited;
    if (round > 0) recoveredLogged.push(recovered(server.log()));
    await Bun.sleep(50); // requests the fake had already received finish at "Twilio"
    const phones = sendingPhones();
    const stored = messagesTo();
    windows.push({ sending: phones.length, atProvider: phones.filter((p) => (stored.get(p) ?? 0) > 0).length });
    for (const p of phones) inFlight.add(p);
    if (count("Queued") === 0 && phones.length === 0) break;
  }

  // The last run finishes the broadcast.
  const last = await start();
  await until(
    () => (db.query("SELECT completed_at FROM broadcasts WHERE id = ?1").get(broadcastId) as { completed_at: number | null }).completed_at !== null,
    60_000,
    "the broadcast to complete",
  );
  last.proc.kill("SIGTERM");
  await last.proc.exited;
  recoveredLogged.push(recovered(last.log()));

  const stored = messagesTo();
  const phones = (db.query("SELECT to_phone AS phone FROM deliveries WHERE broadcast_id = ?1").all(broadcastId) as { phone: string }[]).map((r) => r.phone);
  expect(phones).toHaveLength(RECIPIENTS);
  const missing = phones.filter((p) => (stored.get(p) ?? 0) === 0);
  const duplicated = phones.filter((p) => (stored.get(p) ?? 0) > 1);
  expect(missing).toEqual([]);
  // Only a delivery that was in flight at a kill may have gone out twice.
  expect(duplicated.filter((p) => !inFlight.has(p))).toEqual([]);
  expect(count("Sent") + count("Delivered")).toBe(RECIPIENTS);
  // each restart reported the rows it found in flight
  expect(recoveredLogged).toEqual(windows.map((w) => w.sending));
  db.close();

  const total = windows.reduce((n, w) => n + w.sending, 0);
  console.log(
    `kill -9 rounds: ${windows.length}; in-flight window per kill (Sending rows): ${windows.map((w) => w.sending).join(", ")} ` +
      `(total ${total}; of these, already accepted by the provider and reconciled without resending: ` +
      `${windows.map((w) => w.atProvider).join(", ")}); recipients messaged twice: ${duplicated.length}; ` +
      `${world.fake.sends().length} requests for ${RECIPIENTS} recipients; ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
});

test("a second serve on the same data directory serves HTTP, stands by, and takes over dispatching after a kill -9", async () => {
  const first = await start();
  const second = await start();
  try {
    await until(() => /another process is sending messages for this data directory; standing by/.test(second.log()), 10_000, "standby line");
    expect(first.log()).toContain("dispatcher: sending messages (200 message(s)/second");
    expect(first.log()).toContain("Messages: Twilio (SMS from +15550001111, no WhatsApp sender; API http://127.0.0.1:");
    const port = (log: string) => /listening on http:\/\/[^:]+:(\d+)/.exec(log)![1];
    for (const s of [first, second]) {
      const res = await fetch(`http://127.0.0.1:${port(s.log())}/api/health`);
      expect(res.status).toBe(200);
    }
    first.proc.kill("SIGKILL");
    await first.proc.exited;
    await until(() => /took over sending messages/.test(second.log()), 15_000, "takeover");
  } finally {
    first.proc.kill("SIGKILL");
    second.proc.kill("SIGTERM");
    await second.proc.exited;
  }
  expect(second.log()).toContain("SIGTERM received, shutting down");
});
