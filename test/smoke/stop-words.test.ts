// Plain words that ask to stop (issue 24, item 3) on the built executable: subscribers text replies from the rule's
// table as Twilio does (signed inbound webhooks from the fake Twilio); those that ask to stop are opted out of the
// shop, the others stay subscribed and are kept for the inbox.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { json, nearcast } from "../helpers/cli.ts";
import { seedShop } from "../helpers/seed-shop.ts";
import { fakeTwilioEnv, type RunningBinary, startBinary } from "../helpers/server.ts";
import { useFakeTwilioBinary } from "../helpers/smoke-fake-twilio-binary.ts";
import { MUST_NOT_OPT_OUT, MUST_OPT_OUT } from "../helpers/stop-phrases.ts";

// Every fourth phrase of each side of the table: a spread of English and Spanish, bare words and phrases.
const STOPS = MUST_OPT_OUT.filter((_, i) => i % 4 === 0);
const OTHERS = MUST_NOT_OPT_OUT.filter((_, i) => i % 4 === 0);
const FIRST = 5550300;
const phoneOf = (i: number) => `+1415${FIRST + i}`;

const world = useFakeTwilioBinary("nearcast-stop-words-");
let server: RunningBinary;
let businessId = 0;

beforeAll(async () => {
  businessId = await seedShop(world.dataDir, { ownerEmail: "rosa@stopwords.test", businessName: "Rosa's Bakery", subscribers: STOPS.length + OTHERS.length, firstNumber: FIRST });
  server = await startBinary({ ...fakeTwilioEnv(world.fake, 10), NEARCAST_LOG_LEVEL: "error" }, world.dataDir, { binary: world.bin });
});

afterAll(async () => {
  await server?.stop();
});

test("replies that ask to stop opt out; questions and other words do not", async () => {
  const replies = [...STOPS, ...OTHERS];
  for (const [i, body] of replies.entries()) {
    const answer = await world.fake.sendInbound(`${server.url}/api/webhooks/twilio/inbound`, "https://deals.example.com", { from: phoneOf(i), body });
    expect(answer.status).toBe(200);
  }
  const list = json(nearcast(["customers", "list", "--business", String(businessId), "--json"], world.dataDir)) as { phone: string; status: string }[];
  const statusOf = (i: number) => list.find((c) => c.phone === phoneOf(i))?.status;
  expect(STOPS.map((body, i) => [body, statusOf(i)])).toEqual(STOPS.map((body) => [body, "unsubscribed"]));
  expect(OTHERS.map((body, i) => [body, statusOf(STOPS.length + i)])).toEqual(OTHERS.map((body) => [body, "active"]));
}, 60_000);
