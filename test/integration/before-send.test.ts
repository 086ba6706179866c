// Issue 11, item 6: before a broadcast goes out. The owner's own phone (GetCurrentUser, UpdateMyPhone), a test to it
// through the messenger of the moment (the fake Twilio sees exactly one message; nothing is written as a broadcast),
// and the estimate the confirm step shows (recipients, segments, cost).
// Estimate is a scenario table; SendTest is not: multipart forms, and tests read the fake Twilio between calls.
import { TRACKING_NO_LINKS } from "../../src/schemas/link-tracking.ts";
import { describe, expect, test } from "bun:test";
import { MY_PHONE_INVALID, MY_PHONE_MISSING } from "../../src/schemas/auth.ts";
import { MMS_PRICE_IN_SEGMENTS } from "../../src/schemas/broadcast-estimate.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { CHANNEL_INVALID } from "../../src/schemas/broadcast-input.ts";
import { IMAGE_PATH_INVALID, TEST_SENDS_PER_MINUTE } from "../../src/services/broadcasts/test-send.ts";
import { BROADCAST_INVALID_IMAGE, MESSAGE_REQUIRED } from "../../src/schemas/texts.ts";
import { apiClient, PUBLIC_URL } from "../helpers/api.ts";
import { closing, contextFollowing, fakeTwilioForFile, ownersWorld } from "../helpers/worlds.ts";
import { customerTables, insertSubscriber } from "../helpers/customer-factories.ts";
import { FAKE_SMS_FROM, FAKE_WHATSAPP_FROM } from "../helpers/fake-twilio.ts";
import { PNG } from "../helpers/images.ts";
import { type ApiScenario, type Json, runScenarios } from "../helpers/scenario.ts";

const OWNER_PHONE = "+14155550199";
const SEND_TEST = "/api/broadcast/SendTest";
const ESTIMATE = "/api/broadcast/Estimate";

const fake = fakeTwilioForFile();

function world(env: Record<string, string> = {}) {
  const ctx = contextFollowing(fake, { NEARCAST_PUBLIC_URL: PUBLIC_URL, ...env });
  // Owner A's phone is a verified one here (issue 21: tests go only there); verification has its own tests.
  const { ownerA, ownerB, bakery, gym } = ownersWorld(ctx, { ownerA: { phone: OWNER_PHONE, phoneVerifiedAt: ctx.clock.now() }, cafe: false, admin: false });
  return { ctx, api: apiClient(ctx), tokens: { ownerA: ownerA.token }, ownerA, ownerB, bakery, gym };
}
type World = ReturnType<typeof world>;

function form(fields: Record<string, string | File | undefined>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) f.append(k, v);
  return f;
}

const sendTest = (w: World, token: string | undefined, fields: Record<string, string | File | undefined>) =>
  w.api.call("POST", SEND_TEST, { body: form(fields), ...(token ? { token } : {}) });

const nothingWritten = (w: World) => {
  const t = customerTables(w.ctx);
  expect(w.ctx.db.$client.query("SELECT count(*) AS n FROM broadcasts").get()).toEqual({ n: 0 });
  expect(w.ctx.db.$client.query("SELECT count(*) AS n FROM deliveries").get()).toEqual({ n: 0 });
  return t;
};

/** Runs `fn` in a fresh world, on the fake Twilio (reset first) or in the sandbox (no Twilio settings), and closes it. */
async function inWorld(fn: (w: World) => Promise<void>, onTwilio: boolean) {
  if (onTwilio) fake.reset();
  await closing(world(onTwilio ? fake.settings() : {}), fn);
}
const onFake = (fn: (w: World) => Promise<void>) => inWorld(fn, true);
const inSandbox = (fn: (w: World) => Promise<void>) => inWorld(fn, false);

describe("the owner's own phone", () => {
  test("GetCurrentUser shows it; UpdateMyPhone stores it in E.164, and \"\" clears it", () =>
    inSandbox(async (w) => {
      const me = await w.api.get("/api/auth/GetCurrentUser", { token: w.ownerB.token });
      expect(me.body.phone).toBeNull();
      const set = await w.api.put("/api/auth/UpdateMyPhone", { phone: "(415) 555-0123" }, { token: w.ownerB.token });
      expect(set.status).toBe(200);
      expect(set.body.phone).toBe("+14155550123");
      expect(w.ctx.repos.users.findById(w.ownerB.id)!.phone).toBe("+14155550123");
      expect((await w.api.get("/api/auth/GetCurrentUser", { token: w.ownerB.token })).body.phone).toBe("+14155550123");
      const cleared = await w.api.put("/api/auth/UpdateMyPhone", { phone: "" }, { token: w.ownerB.token });
      expect(cleared.status).toBe(200);
      expect(cleared.body.phone).toBeNull();
      expect(w.ctx.repos.users.findById(w.ownerB.id)!.phone).toBeNull();
    }));

  test("a bad number is a 400 naming phone, and nothing changes; anonymous is 401", () =>
    inSandbox(async (w) => {
      for (const phone of ["12", "not a phone", "+1415555012345678901", 42]) {
        const r = await w.api.put("/api/auth/UpdateMyPhone", { phone }, { token: w.ownerA.token });
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ code: "validation_failed", fields: { phone: MY_PHONE_INVALID } });
      }
      expect(w.ctx.repos.users.findById(w.ownerA.id)!.phone).toBe(OWNER_PHONE);
      expect((await w.api.put("/api/auth/UpdateMyPhone", { phone: "+14155550123" })).status).toBe(401);
    }));
});

describe("SendTest", () => {
  test("through Twilio: the fake sees exactly one message, to the owner's phone, and no broadcast or delivery is written", () =>
    onFake(async (w) => {
      insertSubscriber(w.ctx, w.bakery.id, { phone: "+14155550111" });
      const r = await sendTest(w, w.ownerA.token, { BusinessId: String(w.bakery.id), MessageText: "  Fresh bread at 7!  " });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ result: "sent", to: OWNER_PHONE, channel: "SMS" });
      expect(r.body.providerId).toMatch(/^SM/);
      const sends = fake.sends();
      expect(sends).toHaveLength(1);
      expect(sends[0]!.form).toMatchObject({ To: OWNER_PHONE, Body: "Fresh bread at 7!", From: FAKE_SMS_FROM });
      nothingWritten(w);
      // Not a broadcast: the history stays empty.
      expect((await w.api.get(`/api/business/GetBroadcasts?businessId=${w.bakery.id}`, { token: w.ownerA.token })).body).toEqual([]);
    }));

  test("WhatsApp with an image: one message to whatsapp:<owner> with the image's public URL", () =>
    onFake(async (w) => {
      const r = await sendTest(w, w.ownerA.token, {
        BusinessId: String(w.bakery.id),
        MessageText: "Look at this loaf",
        Channel: "WhatsApp",
        Image: new File([new Uint8Array(PNG)], "loaf.png", { type: "image/png" }),
      });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ result: "sent", channel: "WhatsApp" });
      const sends = fake.sends();
      expect(sends).toHaveLength(1);
      expect(sends[0]!.form.To).toBe(`whatsapp:${OWNER_PHONE}`);
      expect(sends[0]!.form.From).toBe(`whatsapp:${FAKE_WHATSAPP_FROM}`);
      expect(String(sends[0]!.form.MediaUrl)).toMatch(/^https:\/\/deals\.example\.com\/uploads\/[^/]+\.png$/);
      nothingWritten(w);
    }));

  test("a provider refusal comes back as failed with the reason (200: the request itself was fine)", () =>
    onFake(async (w) => {
      fake.scriptFor(OWNER_PHONE, "invalid_number");
      const r = await sendTest(w, w.ownerA.token, { BusinessId: String(w.bakery.id), MessageText: "Hello" });
      expect(r.status).toBe(200);
      expect(r.body.result).toBe("failed");
      expect(r.body.reason).toContain("21211");
      expect(r.body.message).toContain("was not sent");
      nothingWritten(w);
    }));

  test("in the sandbox it is recorded as sent, not written anywhere", () =>
    inSandbox(async (w) => {
      const r = await sendTest(w, w.ownerA.token, { BusinessId: String(w.bakery.id), MessageText: "Sandbox hello" });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ result: "sent", to: OWNER_PHONE });
      nothingWritten(w);
    }));

  test("another owner's business is 404, anonymous 401; nothing is sent", () =>
    onFake(async (w) => {
      const other = await sendTest(w, w.ownerA.token, { BusinessId: String(w.gym.id), MessageText: "Hi" });
      expect(other.status).toBe(404);
      expect(other.body.code).toBe("not_found");
      const unknown = await sendTest(w, w.ownerA.token, { BusinessId: "9999", MessageText: "Hi" });
      expect(unknown.status).toBe(404);
      expect((await sendTest(w, undefined, { BusinessId: String(w.bakery.id), MessageText: "Hi" })).status).toBe(401);
      expect(fake.sends()).toHaveLength(0);
    }));

  test("bad input is a 400 naming the field, and nothing is sent", () =>
    onFake(async (w) => {
      const id = String(w.bakery.id);
      const cases: [Record<string, string | File>, string, string, string?][] = [
        [{ BusinessId: id, MessageText: "   " }, "MessageText", MESSAGE_REQUIRED],
        [{ BusinessId: id, MessageText: "Hi", Channel: "Pigeon" }, "Channel", CHANNEL_INVALID],
        [{ BusinessId: id, MessageText: "Hi", Image: new File(["not an image"], "x.png") }, "Image", BROADCAST_INVALID_IMAGE],
        [{ BusinessId: id, MessageText: "Hi", ImagePath: "/uploads/nope.png" }, "ImagePath", IMAGE_PATH_INVALID],
        [{ MessageText: "Hi" }, "BusinessId", "Business ID is required."],
      ];
      for (const [fields, field, message] of cases) {
        const r = await sendTest(w, w.ownerA.token, fields);
        expect(r.status).toBe(400);
        expect(r.body.fields?.[field]).toBe(message);
      }
      // No phone of their own: 400 naming phone.
      const gymOwner = await sendTest(w, w.ownerB.token, { BusinessId: String(w.gym.id), MessageText: "Hi" });
      expect(gymOwner.status).toBe(400);
      expect(gymOwner.body).toMatchObject({ error: MY_PHONE_MISSING, code: "validation_failed", fields: { phone: MY_PHONE_MISSING } });
      expect(fake.sends()).toHaveLength(0);
      nothingWritten(w);
    }));

  test("an image the owner already uploaded can be sent by its path; another owner's cannot", () =>
    onFake(async (w) => {
      const mine = await w.ctx.services.uploads.saveBytes(w.ownerA.id, "broadcast", PNG);
      const theirs = await w.ctx.services.uploads.saveBytes(w.ownerB.id, "broadcast", PNG);
      const ok = await sendTest(w, w.ownerA.token, { BusinessId: String(w.bakery.id), MessageText: "Hi", ImagePath: mine.filePath });
      expect(ok.body.result).toBe("sent");
      expect(fake.sends()[0]!.form.MediaUrl).toBe(`https://deals.example.com${mine.filePath}`);
      const no = await sendTest(w, w.ownerA.token, { BusinessId: String(w.bakery.id), MessageText: "Hi", ImagePath: theirs.filePath });
      expect(no.status).toBe(400);
      expect(no.body.fields.ImagePath).toBe(IMAGE_PATH_INVALID);
      expect(fake.sends()).toHaveLength(1);
    }));

  test(`throttled: the ${TEST_SENDS_PER_MINUTE + 1}th test within a minute is a 429 with Retry-After, and a minute later it works again`, () =>
    onFake(async (w) => {
      const fields = { BusinessId: String(w.bakery.id), MessageText: "Again" };
      for (let i = 0; i < TEST_SENDS_PER_MINUTE; i++) expect((await sendTest(w, w.ownerA.token, fields)).status).toBe(200);
      const over = await sendTest(w, w.ownerA.token, fields);
      expect(over.status).toBe(429);
      expect(over.body.code).toBe("too_many_requests");
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(fake.sends()).toHaveLength(TEST_SENDS_PER_MINUTE);
      w.ctx.clock.advance(61_000);
      expect((await sendTest(w, w.ownerA.token, fields)).status).toBe(200);
    }));
});

describe("Estimate", () => {
  /** WhatsApp subscribers who wrote to us within 24 hours (free-form reaches them), and `away` who did not. */
  function subscribers(w: World, sms: number, whatsapp: number, away = 0) {
    for (let i = 0; i < sms; i++) insertSubscriber(w.ctx, w.bakery.id, { contactPreference: "SMS" });
    for (let i = 0; i < whatsapp + away; i++) {
      const { customer } = insertSubscriber(w.ctx, w.bakery.id, { contactPreference: "WhatsApp", phone: `+4479460${String(10000 + i).slice(-5)}` });
      if (i < whatsapp) w.ctx.repos.customerInbound.record(customer.id, "WhatsApp", w.ctx.clock.now().getTime() - 60_000);
    }
  }

  const ask = (name: string, json: (w: World) => Json, rest: Partial<ApiScenario<World>>): ApiScenario<World> => ({ name, as: "ownerA", method: "POST", path: ESTIMATE, json, status: 200, ...rest });
  runScenarios<World>(
    [
      ask("GSM-7 text: segments per SMS, one per WhatsApp message, cost at the default price", (w) => ({ businessId: w.bakery.id, messageText: "x".repeat(161) }), {
        before: (w) => subscribers(w, 3, 2), // "x" * 161: two GSM-7 segments
        expect: (body) =>
          expect(body).toEqual({
            recipients: 5, sms: 3, whatsapp: 2, skipped: 0, mms: false, encoding: "GSM-7", segmentsPerMessage: 2, messages: 5,
            totalSegments: 3 * 2 + 2, estimatedCost: Math.round(8 * 0.0083 * 10_000) / 10_000, currency: "USD", pricePerSegment: 0.0083,
            // Issue 25: no link in the text, nothing to track.
            linkTracking: { on: false, reason: TRACKING_NO_LINKS },
          }),
      }),
      // 1 SMS, 1 WhatsApp in the 24-hour window, 2 on WhatsApp outside it (UK numbers).
      ask("WhatsApp people a broadcast would skip are not counted or priced", (w) => ({ businessId: w.bakery.id, messageText: "Fresh bread" }), {
        before: (w) => subscribers(w, 1, 1, 2),
        expectBody: { recipients: 2, sms: 1, whatsapp: 1, skipped: 2, messages: 2, totalSegments: 2 },
      }),
      ask("a template reaches the WhatsApp people outside the window", (w) => ({ businessId: w.bakery.id, messageText: "Fresh bread", withTemplate: true }), {
        before: (w) => subscribers(w, 1, 1, 2),
        expectBody: { recipients: 4, sms: 1, whatsapp: 3, skipped: 0, messages: 4, totalSegments: 4 },
      }),
      ask("UCS-2 text (an emoji) splits at 70/67; the price setting is used", (w) => ({ businessId: String(w.bakery.id), messageText: `${"a".repeat(70)}😊` }), {
        before: async (w) => {
          subscribers(w, 4, 0);
          await w.ctx.services.settings.update(OPERATOR, { pricePerSegment: "0.01" });
        },
        expectBody: { encoding: "UCS-2", segmentsPerMessage: 2, totalSegments: 8, estimatedCost: 0.08, pricePerSegment: 0.01 },
      }),
      ask("an image makes each SMS one MMS (not segmented), priced as MMS_PRICE_IN_SEGMENTS segments", (w) => ({ businessId: w.bakery.id, messageText: "y".repeat(400), hasImage: true }), {
        before: async (w) => {
          subscribers(w, 10, 1);
          await w.ctx.services.settings.update(OPERATOR, { pricePerSegment: "0.01" });
        },
        expectBody: { mms: true, segmentsPerMessage: 1, totalSegments: 11, estimatedCost: (10 * MMS_PRICE_IN_SEGMENTS + 1) * 0.01 },
      }),
      ask("the sandbox bills nothing: estimatedCost is null", (w) => ({ businessId: w.bakery.id, messageText: "Hi" }), {
        env: {},
        before: (w) => subscribers(w, 2, 0),
        expectBody: { recipients: 2, totalSegments: 2, estimatedCost: null, currency: "USD" },
      }),
      ask("another owner's business: 404", (w) => ({ businessId: w.gym.id, messageText: "Hi" }), { env: {}, status: 404 }),
      ask("anonymous: 401", (w) => ({ businessId: w.bakery.id, messageText: "Hi" }), { env: {}, as: undefined, status: 401 }),
      ask("a blank message: 400 naming MessageText", (w) => ({ businessId: w.bakery.id, messageText: " " }), { env: {}, status: 400, fields: { MessageText: MESSAGE_REQUIRED } }),
      ask("no business id: 400 naming BusinessId", () => ({ messageText: "Hi" }), { env: {}, status: 400, expect: (body) => expect(Object.keys(body.fields)).toEqual(["BusinessId"]) }),
    ],
    // The sandbox where a scenario says env: {}; the fake Twilio otherwise.
    { world: (s) => world(s.env ?? fake.settings()), done: (w) => w.ctx.close() },
  );
});
