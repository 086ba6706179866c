// GET /api/business/GetRegistrationKit (issue 23, item 1): the fields of Twilio's toll-free verification and 10DLC
// campaign forms, filled in for one business. The owner and the admin get it; another owner gets 404 like every
// business route. Without a saved public URL it still answers, with the URLs null and the problem named.
import { afterEach, describe, expect, test } from "bun:test";
import * as v from "valibot";
import { confirmationText } from "../../src/schemas/confirmation.ts";
import { consentText } from "../../src/schemas/consent.ts";
import { sampleDealText } from "../../src/schemas/poster-text.ts";
import { registrationKitSchema, SAMPLE_STOP } from "../../src/schemas/registration.ts";
import { helpReply, startReply, stopReply } from "../../src/services/inbound-messages.ts";
import { KIT_NEEDS_PUBLIC_URL } from "../../src/services/registration/index.ts";
import { apiClient, PUBLIC_URL } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBroadcast } from "../helpers/delivery-factories.ts";
import { insertBusinessType } from "../helpers/factories.ts";
import { type ApiScenario, request, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { ownersWorld } from "../helpers/worlds.ts";

type Owners = ReturnType<typeof ownersWorld>;
interface World extends ScenarioWorld, Owners {
  ctx: TestContext;
}

const DAY = 86_400_000;
const kitOf = (id: number | string) => `/api/business/GetRegistrationKit?id=${id}`;

function world(env: Record<string, string> = {}): World {
  const ctx = testContext(env);
  const bakeryType = insertBusinessType(ctx, { name: "Bakery & Pizza" });
  const owners = ownersWorld(ctx, { bakery: { name: "Rosa's Bakery", businessTypeId: bakeryType.id, messagesPerWeek: 2, phone: "+14155550100", address: "12 Main St, Springfield" } });
  return { ctx, api: apiClient(ctx), ...owners, tokens: { ownerA: owners.ownerA.token, ownerB: owners.ownerB.token, admin: owners.admin.token, anon: undefined } };
}

/** The kit fields whose values come from the business's own facts, the same for the owner and the admin. */
function expectKitOf(body: any, w: World) {
  expect(v.is(registrationKitSchema, body)).toBe(true);
  const name = "Rosa's Bakery";
  expect(body).toMatchObject({ businessId: w.bakery.id, businessName: name, useCase: "MARKETING", optInType: "WEB_FORM" });
  expect(body.optInDescription).toContain(consentText({ name, messagesPerWeek: 2 }));
  expect(body.optInDescription).toContain(confirmationText({ name, messagesPerWeek: 2, doubleOptIn: false }));
  expect(body.description).toContain(name);
  // Twilio answers (keywordReplies "twilio", the default): the texts to paste into its Advanced Opt-Out. The number
  // serves several shops here, so they name the brand.
  expect(body.keywords).toEqual([
    { keyword: "STOP", reply: "You have been unsubscribed from Nearcast messages. Reply START to resubscribe." },
    { keyword: "START", reply: "You are subscribed to Nearcast messages again. Msg & data rates may apply. Reply HELP for help, STOP to unsubscribe." },
    { keyword: "HELP", reply: "Nearcast: local deals by text. Contact: hello@nearcast.app. Msg & data rates may apply. Reply STOP to unsubscribe." },
  ]);
  // No broadcast yet: two samples made from the type ("pizza" -> the restaurant deal) and the product.
  expect(body.sampleMessages).toEqual([
    `${name}: ${sampleDealText("Bakery & Pizza")} ${SAMPLE_STOP}`,
    `${name}: new this week, Fresh bread daily. Show this text in store. ${SAMPLE_STOP}`,
  ]);
}

const asOwnerA = (path: (w: World) => string) => request<World>("ownerA", "GET", path);
const bakeryKit = (w: World) => kitOf(w.bakery.id);

let ctx: TestContext | undefined;
afterEach(() => ctx?.close());

describe("GET /api/business/GetRegistrationKit", () => {
  runScenarios<World>(
    [
      asOwnerA(bakeryKit)("the owner: the kit, URLs on the saved public URL, no problems", 200, {
        expect: (body, w) => {
          expectKitOf(body, w);
          expect(body).toMatchObject({
            programUrl: `${PUBLIC_URL}/program?id=${w.bakery.id}`,
            optInImageUrl: `${PUBLIC_URL}/program/poster.pdf?id=${w.bakery.id}`,
            privacyUrl: `${PUBLIC_URL}/privacy`,
            termsUrl: `${PUBLIC_URL}/terms`,
            problems: [],
          });
        },
      }),
      { name: "the admin: any business's kit", as: "admin", method: "GET", path: bakeryKit, status: 200, expect: expectKitOf },
      { name: "another owner: 404, as for every business route", as: "ownerB", method: "GET", path: bakeryKit, status: 404, expectBody: { code: "not_found" } },
      { name: "no session: 401", as: "anon", method: "GET", path: bakeryKit, status: 401 },
      asOwnerA(() => kitOf("abc"))("a bad id: 400 naming id", 400, { expectBody: { code: "validation_failed", fields: { id: "invalid" } } }),
      asOwnerA(() => kitOf(999_999))("an unknown id: 404", 404),
    ],
    {
      world: () => {
        const w = world({ NEARCAST_PUBLIC_URL: PUBLIC_URL });
        ctx = w.ctx;
        return w;
      },
    },
  );
});

describe("what the kit is made of", () => {
  test("no public URL saved: 200, every URL null, and the first problem says what to set", async () => {
    const w = world();
    ctx = w.ctx;
    const res = await w.api.get(kitOf(w.bakery.id), { token: w.ownerA.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ programUrl: null, optInImageUrl: null, privacyUrl: null, termsUrl: null });
    expect(res.body.problems).toEqual([KIT_NEEDS_PUBLIC_URL]);
    expectKitOf(res.body, w);
  });

  test("samples: the newest real broadcasts that name the business and say STOP; the others are counted as a problem", async () => {
    const w = world({ NEARCAST_PUBLIC_URL: PUBLIC_URL });
    ctx = w.ctx;
    const now = w.ctx.clock.now().getTime();
    const sent = (messageText: string, daysAgo: number) => insertBroadcast(w.ctx, { businessId: w.bakery.id, messageText, createdAt: new Date(now - daysAgo * DAY) });
    sent("Rosa's Bakery: croissants 2 for 1 today. Reply STOP to opt out.", 20);
    sent("Half price bagels!", 10);
    sent("Rosa's Bakery: new sourdough is in. Reply STOP to opt out.", 3);
    for (let i = 0; i < 3; i++) insertSubscriber(w.ctx, w.bakery.id);
    insertSubscriber(w.ctx, w.bakery.id, { contactPreference: "WhatsApp" });
    const { body } = await w.api.get(kitOf(w.bakery.id), { token: w.ownerA.token });
    expect(body.sampleMessages).toEqual(["Rosa's Bakery: new sourdough is in. Reply STOP to opt out.", "Rosa's Bakery: croissants 2 for 1 today. Reply STOP to opt out."]);
    expect(body.problems).toEqual([expect.stringMatching(/^1 recent broadcast\(s\) were left out of the samples/)]);
    // 3 SMS subscribers (the WhatsApp one is not texted by SMS) x 3 broadcasts in the last 30 days.
    expect(body).toMatchObject({ monthlyVolume: 9, monthlyVolumeTier: "10", monthlyVolumeBasis: "3 SMS subscriber(s) x 3 broadcast(s) in the last 30 days" });
  });

  test("volume before the first broadcast: subscribers x the most the sign-up promises (per week x 4)", async () => {
    const w = world();
    ctx = w.ctx;
    for (let i = 0; i < 200; i++) insertSubscriber(w.ctx, w.bakery.id);
    const { body } = await w.api.get(kitOf(w.bakery.id), { token: w.ownerA.token });
    expect(body).toMatchObject({ monthlyVolume: 1600, monthlyVolumeTier: "10,000" });
  });

  test("the sender: a US number not approved needs registration; approved does not; a UK number never does", async () => {
    const twilio = { TWILIO_ACCOUNT_SID: `AC${"a".repeat(32)}`, TWILIO_AUTH_TOKEN: "x".repeat(32), TWILIO_API_BASE: "http://127.0.0.1:9" };
    const senderOf = async (env: Record<string, string>) => {
      const w = world({ ...twilio, ...env });
      try {
        return (await w.api.get(kitOf(w.bakery.id), { token: w.ownerA.token })).body.sender;
      } finally {
        w.ctx.close();
      }
    };
    expect(await senderOf({ TWILIO_FROM: "+14155550199" })).toEqual({ number: "+14155550199", us: true, registration: "unregistered", needsRegistration: true });
    expect(await senderOf({ TWILIO_FROM: "+14155550199", NEARCAST_SENDER_REGISTRATION: "pending" })).toMatchObject({ registration: "pending", needsRegistration: true });
    expect(await senderOf({ TWILIO_FROM: "+14155550199", NEARCAST_SENDER_REGISTRATION: "approved" })).toMatchObject({ needsRegistration: false });
    expect(await senderOf({ TWILIO_FROM: "+447700900123" })).toMatchObject({ us: false, needsRegistration: false });
    // A Canadian +1 number is not a US one.
    expect(await senderOf({ TWILIO_FROM: "+16135550123" })).toMatchObject({ us: false, needsRegistration: false });
  });

  test("keyword replies: with Nearcast answering, its own replies for this business, under the brand set", async () => {
    const w = world({ NEARCAST_KEYWORD_REPLIES: "nearcast", NEARCAST_BRAND_NAME: "Main Street Deals" });
    ctx = w.ctx;
    const name = "Rosa's Bakery";
    const body = (await w.api.get(kitOf(w.bakery.id), { token: w.ownerA.token })).body;
    expect(body.keywords).toEqual([
      { keyword: "STOP", reply: stopReply("Main Street Deals") },
      { keyword: "START", reply: startReply([name], "Main Street Deals") },
      { keyword: "HELP", reply: helpReply({ name, phone: "+14155550100" }, "Main Street Deals") },
    ]);
    expect(JSON.stringify(body.keywords)).not.toContain("Nearcast");
  });

  test("senderRegistration is a setting: saved by the admin, refused when it is not one of the three", async () => {
    const w = world();
    ctx = w.ctx;
    const bad = await w.api.put("/api/settings", { senderRegistration: "done" }, { token: w.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ senderRegistration: "Sender registration must be unregistered, pending or approved" });
    const ok = await w.api.put("/api/settings", { senderRegistration: "Approved" }, { token: w.admin.token });
    expect(ok.status).toBe(200);
    expect(ok.body.senderRegistration).toMatchObject({ value: "approved", source: "saved" });
  });
});
