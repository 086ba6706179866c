// Join by texting a word (issue 24, item 5) on the built executable: the CLI (the executable itself) sets the keyword,
// the subscribe page says "or text BAGEL to …", the fake Twilio texts the keyword the way Twilio does (signed), and
// the confirmation comes back to the fake; a premium-rate number is refused in the TwiML answer.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { confirmationText } from "../../src/schemas/confirmation.ts";
import { twiml } from "../../src/services/inbound-messages.ts";
import { joinRefusedReply } from "../../src/services/keyword-join.ts";
import { seedShop } from "../helpers/seed-shop.ts";
import { fakeTwilioEnv, type RunningBinary, startBinary } from "../helpers/server.ts";
import { useFakeTwilioBinary } from "../helpers/smoke-fake-twilio-binary.ts";
import { until } from "../helpers/until.ts";

const SHOP = "Rosa's Bakery";
const world = useFakeTwilioBinary("nearcast-keyword-join-");
let server: RunningBinary;
let businessId = 0;

beforeAll(async () => {
  businessId = await seedShop(world.dataDir, { ownerEmail: "rosa@shop.com", businessName: SHOP, subscribers: 0, firstNumber: 5550100 });
  const env = { ...fakeTwilioEnv(world.fake, 10), NEARCAST_LOG_LEVEL: "error" };
  const set = Bun.spawnSync({ cmd: [world.bin, "businesses", "update", String(businessId), "--keyword", "bagel", "--data-dir", world.dataDir], env: { PATH: process.env.PATH ?? "", ...env } });
  expect(set.stderr.toString()).toBe("");
  expect(set.stdout.toString()).toContain(`${SHOP}: join keyword BAGEL.`);
  server = await startBinary(env, world.dataDir, { binary: world.bin });
});

afterAll(async () => {
  await server?.stop();
});

// Twilio signs the address it was given: the public URL.
const text = (from: string, body: string) => world.fake.sendInbound(`${server.url}/api/webhooks/twilio/inbound`, "https://deals.example.com", { from, body });

test("the subscribe page offers the keyword; texting it subscribes and the confirmation reaches the number", async () => {
  const page = await (await fetch(`${server.url}/subscribe?id=${businessId}`)).text();
  expect(page).toContain("or text BAGEL to +1 555 000 1111");
  expect(await text("+14155550177", " Bagel ")).toEqual({ status: 200, twiml: twiml(null) });
  await until(() => world.fake.sends().some((s) => s.form.To === "+14155550177"), 10_000, "the confirmation");
  const [sent] = world.fake.sends().filter((s) => s.form.To === "+14155550177");
  expect(sent!.form.Body).toBe(confirmationText({ name: SHOP, messagesPerWeek: 4, doubleOptIn: false }));
});

test("a premium-rate number is refused politely in the answer; nothing is sent to it", async () => {
  expect(await text("+19005550123", "BAGEL")).toEqual({ status: 200, twiml: twiml(joinRefusedReply(SHOP)) });
  expect(world.fake.sends().filter((s) => s.form.To === "+19005550123")).toEqual([]);
});
