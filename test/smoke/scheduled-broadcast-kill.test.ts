// Issue 11 item 5: a scheduled broadcast survives a kill -9. The BUILT executable (Twilio adapter, fake Twilio) is
// running when a broadcast is scheduled about 3 s ahead; it is killed with SIGKILL before that time and started again.
// The restarted server starts the broadcast (everything is in the database) no earlier than its time, and every
// recipient gets exactly one message.
import { Database } from "bun:sqlite";
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { fakeTwilioEnv, startBinary } from "../helpers/server.ts";
import { useFakeTwilioBinary } from "../helpers/smoke-fake-twilio-binary.ts";
import { until } from "../helpers/until.ts";
import { seedShop } from "../helpers/seed-shop.ts";

setDefaultTimeout(60_000);

const RECIPIENTS = 25;
const TEXT = "The winter sale starts now: 30% off everything!";

const world = useFakeTwilioBinary("nearcast-schedule-kill-");

/** The business and its subscribers, written before the server first starts (as the CLI would). */
const seedBusiness = () => seedShop(world.dataDir, { ownerEmail: "schedule-owner@example.com", businessName: "Winter Shop", subscribers: RECIPIENTS, firstNumber: 6000000 });

/** Schedules the broadcast ~3 s ahead while the server runs (another connection to the same database, as the CLI). */
async function schedule(businessId: number): Promise<{ id: number; at: number }> {
  const ctx = createContext(loadConfig({}, { dataDir: world.dataDir }), { logger: new MemoryLogger() });
  try {
    const at = new Date(Date.now() + 3000).toISOString();
    const res = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(businessId), messageText: TEXT, scheduledFor: at });
    if (!("scheduledFor" in res) || !res.scheduledFor) throw new Error("not scheduled");
    return { id: res.broadcastId, at: Date.parse(res.scheduledFor) };
  } finally {
    ctx.close();
  }
}

test("scheduled ~3 s ahead, kill -9 before its time, restart: it starts at its time and each recipient gets one message", async () => {
  const businessId = await seedBusiness();
  const env = fakeTwilioEnv(world.fake, 50);
  const first = await startBinary(env, world.dataDir, { binary: world.bin });
  const { id, at } = await schedule(businessId);
  first.proc.kill("SIGKILL");
  await first.proc.exited;

  const db = new Database(join(world.dataDir, "nearcast.db"));
  db.exec("PRAGMA busy_timeout = 5000");
  const row = () =>
    db.query("SELECT started_at AS startedAt, completed_at AS completedAt, total FROM broadcasts WHERE id = ?1").get(id) as {
      startedAt: number | null;
      completedAt: number | null;
      total: number;
    };
  // Killed before its time: nothing was started or sent.
  expect(row().startedAt).toBeNull();
  expect(world.fake.sends()).toHaveLength(0);

  const second = await startBinary(env, world.dataDir, { binary: world.bin });
  try {
    await until(() => row().completedAt !== null, 30_000, "the scheduled broadcast to complete");
  } finally {
    await second.stop();
  }
  const done = row();
  db.close();
  expect(done.total).toBe(RECIPIENTS);
  expect(done.startedAt).not.toBeNull();
  expect(done.startedAt!).toBeGreaterThanOrEqual(at);
  const perPhone = new Map<string, number>();
  for (const s of world.fake.sends()) perPhone.set(String(s.form.To), (perPhone.get(String(s.form.To)) ?? 0) + 1);
  expect(perPhone.size).toBe(RECIPIENTS);
  expect([...perPhone.values()].every((n) => n === 1)).toBe(true);
  expect(world.fake.sends().every((s) => s.form.Body === TEXT)).toBe(true);
  expect(second.log()).toContain(`scheduled broadcast ${id} started`);
  expect(second.log()).toContain(`broadcast ${id} queued (${RECIPIENTS} message(s))`);
});
