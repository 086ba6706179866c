// Join by texting a word (issue 24, item 5) on the built executable: the CLI (the executable itself) sets the keyword,
// the subscribe page says "or text BAGEL to …", the fake Twilio texts the keyword the way Twilio does (signed), and
// the confirmation comes back to the fake; a premium-rate number is refused in the TwiML answer.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { confirmationText } from "../../src/schemas/confirmation.ts";
import { twiml } from "../../src/services/inbound-messages.ts";
import { joinRefusedReply } from "../../src/services/keyword-join.ts";
import { type FakeTwilio, startFakeTwilio } from "../helpers/fake-twilio.ts";
import { seedShop } from "../helpers/seed-shop.ts";
import { BINARY, fakeTwilioEnv, type RunningBinary, startBinary } from "../helpers/server.ts";
import { until } from "../helpers/until.ts";

const SHOP = "Rosa's Bakery";
let fake: FakeTwilio;
let server: RunningBinary;
let businessId = 0;
const dataDir = mkdtempSync(join(tmpdir(), "nearcast-keyword-join-"));

beforeAll(async () => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`npx bun scripts/build.ts\` first`);
  businessId = await seedShop(dataDir, { ownerEmail: "rosa@shop.com", businessName: SHOP, subscribers: 0, firstNumber: 5550100 });
  fake = startFakeTwilio();
  const env = { ...fakeTwilioEnv(fake, 10), NEARCAST_LOG_LEVEL: "error" };
  const set = Bun.spawnSync({ cmd: [BINARY, "businesses", "update", String(businessId), "--keyword", "bagel", "--data-dir", dataDir], env: { PATH: process.env.PATH ?? "", ...env } });
  expect(set.stderr.toString()).toBe("");
  expect(set.stdout.toString()).toContain(`${SHOP}: join keyword BAGEL.`);
  server = await startBinary(env, dataDir);
});

afterAll(async () => {
  await server?.stop();
  await fake?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

// Twilio signs the address it was given: the public URL.
const text = (from: string, body: string) => fake.sendInbound(`${server.url}/api/webhooks/twilio/inbound`, "https://deals.example.com", { from, body });

test("the subscribe page offers the keyword; texting it subscribes and the confirmation reaches the number", async () => {
  const page = await (await fetch(`${server.url}/subscribe?id=${businessId}`)).text();
  expect(page).toContain("or text BAGEL to +1 555 000 1111");
  expect(await text("+14155550177", " Bagel ")).toEqual({ status: 200, twiml: twiml(null) });
  await until(() => fake.sends().some((s) => s.form.To === "+14155550177"), 10_000, "the confirmation");
  const [sent] = fake.sends().filter((s) => s.form.To === "+14155550177");
  expect(sent!.form.Body).toBe(confirmationText({ name: SHOP, messagesPerWeek: 4, doubleOptIn: false }));
});

test("a premium-rate number is refused politely in the answer; nothing is sent to it", async () => {
  expect(await text("+19005550123", "BAGEL")).toEqual({ status: 200, twiml: twiml(joinRefusedReply(SHOP)) });
  expect(fake.sends().filter((s) => s.form.To === "+19005550123")).toEqual([]);
});
