// One reply to a keyword (issue 23, item 3), on the built executable: the fake Twilio texts STOP and HELP the way
// Twilio does (signed; OptOutType when Advanced Opt-Out is on, which has answered already), and the server answers
// with empty TwiML then, and with its own reply naming the brand when Twilio did not answer.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { twiml } from "../../src/services/inbound-messages.ts";
import { type FakeTwilio, startFakeTwilio } from "../helpers/fake-twilio.ts";
import { BINARY, type RunningBinary, startBinary } from "../helpers/server.ts";

const BRAND = "Main Street Deals";
let fake: FakeTwilio;
let server: RunningBinary;

beforeAll(async () => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`npx bun scripts/build.ts\` first`);
  fake = startFakeTwilio();
  server = await startBinary({ ...fake.settings(), NEARCAST_BRAND_NAME: BRAND, NEARCAST_LOG_LEVEL: "error" });
});

afterAll(async () => {
  await server?.stop();
  await fake?.stop();
});

// No public URL set: Twilio signs the address it called, which is the server's own.
const text = (body: string, advancedOptOut = true) =>
  fake.sendInbound(`${server.url}/api/webhooks/twilio/inbound`, server.url, { from: "+14155550123", body, advancedOptOut });

test("Twilio answered (OptOutType): empty TwiML; Twilio did not: the server's reply, naming the brand", async () => {
  expect(await text("STOP")).toEqual({ status: 200, twiml: twiml(null) });
  expect(await text("help")).toEqual({ status: 200, twiml: twiml(null) });
  expect(await text("STOP", false)).toEqual({ status: 200, twiml: twiml(`You have been unsubscribed from ${BRAND} messages. Reply START to resubscribe.`) });
  expect(await text("HELP", false)).toEqual({ status: 200, twiml: twiml(`${BRAND}: You are not subscribed to any business. Msg & data rates may apply. Reply STOP to unsubscribe.`) });
});
