// Issue 23 item 6: the test shows what subscribers get. A WhatsApp test with a template sends that template
// (ContentSid + ContentVariables, no Body) like the broadcast would; its status callback (…/status?test=<id>) is
// recognised and moves the test on; GET /api/broadcast/TestStatus gives the outcome to its owner (and the admin).
import { describe, expect, test } from "bun:test";
import { OPERATOR } from "../../src/services/principal.ts";
import { CONTENT_SID_UNKNOWN } from "../../src/services/broadcasts/template-choice.ts";
import { TEST_NOT_FOUND } from "../../src/services/broadcasts/test-outcome.ts";
import { testOutcomeText } from "../../src/schemas/test-send.ts";
import { apiClient, PUBLIC_URL } from "../helpers/api.ts";
import { sendStatusCallback } from "../helpers/fake-twilio-callbacks.ts";
import { FAKE_REJECTED_TEMPLATE_SID, FAKE_TEXT_TEMPLATE_SID, FAKE_WHATSAPP_FROM } from "../helpers/fake-twilio.ts";
import { type ApiScenario, request, runScenarios } from "../helpers/scenario.ts";
import { closing, contextFollowing, fakeTwilioForFile, member, ownersWorld } from "../helpers/worlds.ts";

const OWNER_PHONE = "+447700900123";
const SEND_TEST = "/api/broadcast/SendTest";
const TEST_STATUS = "/api/broadcast/TestStatus";
const VARIABLES = JSON.stringify({ "1": "A Bakery", "2": "Rye is back" });

const fake = fakeTwilioForFile();

function world() {
  fake.reset();
  const ctx = contextFollowing(fake, { NEARCAST_PUBLIC_URL: PUBLIC_URL, ...fake.settings() });
  const { ownerA, ownerB, admin, bakery } = ownersWorld(ctx, { ownerA: { phone: OWNER_PHONE, phoneVerifiedAt: ctx.clock.now() }, cafe: false });
  const api = apiClient(ctx);
  return { ctx, api, tokens: { owner: ownerA.token, other: ownerB.token, admin: admin.token }, ownerA, bakery, testId: 0 };
}
type World = ReturnType<typeof world>;

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

const templateTest = (w: World, fields: Record<string, string> = {}) =>
  w.api.call("POST", SEND_TEST, {
    token: w.ownerA.token,
    body: form({ BusinessId: String(w.bakery.id), MessageText: "Rye is back", Channel: "whatsapp", ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: VARIABLES, ...fields }),
  });

const lastMessage = () => [...fake.messages.values()].at(-1)!;

describe("a WhatsApp test with a template", () => {
  test("sends the template (ContentSid + ContentVariables, no Body) with a callback for the test, and says so", () =>
    closing(world(), async (w) => {
      const res = await templateTest(w);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ result: "sent", channel: "WhatsApp", to: OWNER_PHONE });
      expect(res.body.testId).toBeGreaterThan(0);
      expect(res.body.message).toBe(`Test sent by WhatsApp (template weekly_offer) to ${OWNER_PHONE}.`);
      const [send] = fake.sends();
      expect(fake.sends()).toHaveLength(1);
      expect(send!.form.To).toBe(`whatsapp:${OWNER_PHONE}`);
      expect(send!.form.From).toBe(`whatsapp:${FAKE_WHATSAPP_FROM}`);
      expect(send!.form.ContentSid).toBe(FAKE_TEXT_TEMPLATE_SID);
      expect(JSON.parse(String(send!.form.ContentVariables))).toEqual({ "1": "A Bakery", "2": "Rye is back" });
      expect(send!.form.Body).toBeUndefined();
      expect(send!.form.StatusCallback).toBe(`${PUBLIC_URL}/api/webhooks/twilio/status?test=${res.body.testId}`);
      const status = await w.api.get(`${TEST_STATUS}?id=${res.body.testId}`, { token: w.ownerA.token });
      expect(status.body).toMatchObject({ id: res.body.testId, channel: "WhatsApp", contentSid: FAKE_TEXT_TEMPLATE_SID, status: "Sent", providerStatus: "queued", final: false });
      expect(testOutcomeText(status.body)).toBe("Queued");
    }));

  test("an SMS test sends the text (a template is for WhatsApp only)", () =>
    closing(world(), async (w) => {
      const res = await templateTest(w, { Channel: "sms" });
      expect(res.body.result).toBe("sent");
      expect(fake.sends()[0]!.form.Body).toBe("Rye is back");
      expect(fake.sends()[0]!.form.ContentSid).toBeUndefined();
    }));

  test("an unknown or rejected template is a 400 naming ContentSid, and nothing is sent", () =>
    closing(world(), async (w) => {
      const unknown = await templateTest(w, { ContentSid: `HX${"9".repeat(32)}` });
      expect(unknown.status).toBe(400);
      expect(unknown.body.fields).toEqual({ ContentSid: CONTENT_SID_UNKNOWN });
      expect((await templateTest(w, { ContentSid: FAKE_REJECTED_TEMPLATE_SID })).status).toBe(400);
      expect(fake.sends()).toHaveLength(0);
    }));
});

describe("its status callbacks reach the test", () => {
  test("delivered: the test says Delivered; a late `sent` does not take it back; nothing is logged as unknown", () =>
    closing(world(), async (w) => {
      const { testId } = (await templateTest(w)).body;
      expect((await sendStatusCallback(w.api, lastMessage(), "delivered")).status).toBe(200);
      expect((await sendStatusCallback(w.api, lastMessage(), "sent")).status).toBe(200);
      const status = await w.api.get(`${TEST_STATUS}?id=${testId}`, { token: w.ownerA.token });
      expect(status.body).toMatchObject({ status: "Delivered", providerStatus: "delivered", reason: null, final: true });
      expect(testOutcomeText(status.body)).toBe("Delivered");
      expect(w.ctx.logger.lines.filter((l) => l.includes("unknown message"))).toEqual([]);
    }));

  test("undelivered with 63016: the test says Failed with the reason in plain words", () =>
    closing(world(), async (w) => {
      const { testId } = (await templateTest(w)).body;
      await sendStatusCallback(w.api, lastMessage(), "undelivered", { errorCode: 63016 });
      const status = (await w.api.get(`${TEST_STATUS}?id=${testId}`, { token: w.ownerA.token })).body;
      expect(status).toMatchObject({ status: "Failed", final: true });
      expect(testOutcomeText(status)).toMatch(/^Failed: WhatsApp refused a free-form message: it was more than 24 hours/);
    }));

  test("a callback naming a test with another message sid changes nothing", () =>
    closing(world(), async (w) => {
      const { testId } = (await templateTest(w)).body;
      const other = { ...lastMessage(), sid: `SM${"a".repeat(32)}` };
      expect((await sendStatusCallback(w.api, other, "delivered")).status).toBe(200);
      expect((await w.api.get(`${TEST_STATUS}?id=${testId}`, { token: w.ownerA.token })).body.status).toBe("Sent");
    }));
});

const reads = (as: string) => request<World>(as, "GET", (w) => `${TEST_STATUS}?id=${w.testId}`);
const withTest = async (w: World) => {
  w.testId = (await templateTest(w)).body.testId;
};
const scenarios: ApiScenario<World>[] = [
  reads("owner")("their own test", 200, { before: withTest, expectBody: { status: "Sent", channel: "WhatsApp", to: OWNER_PHONE } }),
  reads("admin")("any owner's test", 200, { before: withTest, expectBody: { status: "Sent" } }),
  reads("other")("another owner's test: 404", 404, { before: withTest, expectBody: { error: TEST_NOT_FOUND, code: "not_found" } }),
  request<World>(undefined, "GET", (w) => `${TEST_STATUS}?id=${w.testId}`)("anonymous: 401", 401, { before: withTest }),
  reads("owner")("an id that is none: 404", 404, { before: (w) => { w.testId = 999; } }),
];

describe("GET TestStatus", () => {
  runScenarios(scenarios, { world: () => world(), done: (w) => w.ctx.close() });
});

// The operator reads any test too (the CLI's `broadcast test` waits on it).
test("the operator reads a test", () =>
  closing(world(), async (w) => {
    const { testId } = (await templateTest(w)).body;
    expect(w.ctx.services.testOutcome.status(OPERATOR, testId).status).toBe("Sent");
    expect(() => w.ctx.services.testOutcome.status({ ...member(w.ctx), role: "owner" } as never, testId)).toThrow(TEST_NOT_FOUND);
  }));
