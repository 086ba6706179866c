// Plain words that ask to stop (issue 24, item 3) on the built executable: subscribers text replies from the rule's
// table as Twilio does (signed inbound webhooks from the fake Twilio); those that ask to stop are opted out of the
// shop, the others stay subscribed and are kept for the inbox.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeTwilio, startFakeTwilio } from "../helpers/fake-twilio.ts";
import { json, nearcast } from "../helpers/cli.ts";
import { seedShop } from "../helpers/seed-shop.ts";
import { BINARY, fakeTwilioEnv, type RunningBinary, startBinary } from "../helpers/server.ts";
import { MUST_NOT_OPT_OUT, MUST_OPT_OUT } from "../helpers/stop-phrases.ts";

// Every fourth phrase of each side of the table: a spread of English and Spanish, bare words and phrases.
const STOPS = MUST_OPT_OUT.filter((_, i) => i % 4 === 0);
const OTHERS = MUST_NOT_OPT_OUT.filter((_, i) => i % 4 === 0);
const FIRST = 5550300;
const phoneOf = (i: number) => `+1415${FIRST + i}`;

let fake: FakeTwilio;
let server: RunningBinary;
let businessId = 0;
const dataDir = mkdtempSync(join(tmpdir(), "nearcast-stop-words-"));

beforeAll(async () => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`npx bun scripts/build.ts\` first`);
  businessId = await seedShop(dataDir, { ownerEmail: "rosa@stopwords.test", businessName: "Rosa's Bakery", subscribers: STOPS.length + OTHERS.length, firstNumber: FIRST });
  fake = startFakeTwilio();
  server = await startBinary({ ...fakeTwilioEnv(fake, 10), NEARCAST_LOG_LEVEL: "error" }, dataDir);
});

afterAll(async () => {
  await server?.stop();
  await fake?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("replies that ask to stop opt out; questions and other words do not", async () => {
  const replies = [...STOPS, ...OTHERS];
  for (const [i, body] of replies.entries()) {
    const answer = await fake.sendInbound(`${server.url}/api/webhooks/twilio/inbound`, "https://deals.example.com", { from: phoneOf(i), body });
    expect(answer.status).toBe(200);
  }
  const list = json(nearcast(["customers", "list", "--business", String(businessId), "--json"], dataDir)) as { phone: string; status: string }[];
  const statusOf = (i: number) => list.find((c) => c.phone === phoneOf(i))?.status;
  expect(STOPS.map((body, i) => [body, statusOf(i)])).toEqual(STOPS.map((body) => [body, "unsubscribed"]));
  expect(OTHERS.map((body, i) => [body, statusOf(STOPS.length + i)])).toEqual(OTHERS.map((body) => [body, "active"]));
}, 60_000);
