// Issue 23 item 7: WhatsApp only for numbers its promotions reach (Meta delivers no marketing template to US numbers;
// Canada and the rest of +1 are not paused). The subscribe API refuses WhatsApp for a US number with a 400 on
// contactPreference (switching it to SMS would text a person on a channel they did not choose); the server-rendered
// page chooses SMS and says why; the owner's customer list and the broadcast audience show existing US WhatsApp
// subscribers with the reason; they are skipped for promotions and never texted by SMS instead.
import { afterEach, describe, expect, test } from "bun:test";
import { consentText } from "../../src/schemas/consent.ts";
import { WHATSAPP_CHOOSE_SMS, WHATSAPP_NO_PROMOTIONS, WHATSAPP_SMS_INSTEAD } from "../../src/schemas/whatsapp-reach.ts";
import { SKIP_US_MARKETING } from "../../src/repos/sql/whatsapp-skips.ts";
import { apiClient, PUBLIC_URL } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { counts, customerTables, insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { FAKE_TEXT_TEMPLATE_SID } from "../helpers/fake-twilio.ts";
import { type ApiScenario, request, runScenarios } from "../helpers/scenario.ts";
import { fakeTwilioForFile, member, ownersWorld } from "../helpers/worlds.ts";

const SUBSCRIBE = "/api/subscription/Subscribe";
const ALLOWED = { NEARCAST_ALLOWED_COUNTRIES: "US,CA,GB" };
const US = "+12125550142";
const TORONTO = "+14165550143";
const UK = "+447400123456";

function subscribeWorld() {
  const ctx = testContext(ALLOWED);
  return { ctx, api: apiClient(ctx), business: insertBusiness(ctx, { name: "Sunrise Bakery" }) };
}
type SubscribeWorld = ReturnType<typeof subscribeWorld>;

describe("POST /api/subscription/Subscribe: WhatsApp only where its promotions arrive", () => {
  const as = request<SubscribeWorld>(undefined, "POST", SUBSCRIBE);
  const body = (phone: string, contactPreference: string) => (w: SubscribeWorld) => ({ businessId: w.business.id, phone, contactPreference });
  const nothingWritten = (w: SubscribeWorld) => expect(counts(w.ctx)).toEqual({ customers: 0, subscriptions: 0, consentEvents: 0 });
  const storedAs = (phone: string, channel: "SMS" | "WhatsApp") => (w: SubscribeWorld) => {
    const t = customerTables(w.ctx);
    expect(t.customers.map((c) => c.phone)).toEqual([phone]);
    expect(t.subscriptions.map((s) => s.contactPreference)).toEqual([channel]);
  };
  const refused = { expectBody: { error: WHATSAPP_CHOOSE_SMS, code: "validation_failed" }, fields: { contactPreference: WHATSAPP_CHOOSE_SMS }, after: nothingWritten };
  const scenarios: ApiScenario<SubscribeWorld>[] = [
    as("a US number with +1 by WhatsApp: 400 on contactPreference, nothing written (not switched to SMS)", 400, { json: body("+1 212 555 0142", "WhatsApp"), ...refused }),
    as("a US number typed without +1 (the default country) by WhatsApp: 400, nothing written", 400, { json: body("(212) 555-0142", "WhatsApp"), ...refused }),
    as("a US number by SMS: 200, stored on SMS", 200, { json: body("(212) 555-0142", "SMS"), after: storedAs(US, "SMS") }),
    as("a UK (+44) number by WhatsApp: 200, stored on WhatsApp", 200, { json: body("+44 7400 123456", "WhatsApp"), after: storedAs(UK, "WhatsApp") }),
    as("a Canadian +1 number by WhatsApp: 200 (Meta's pause covers the US only)", 200, { json: body("(416) 555-0143", "WhatsApp"), after: storedAs(TORONTO, "WhatsApp") }),
  ];
  runScenarios(scenarios, { world: () => subscribeWorld(), unchanged: (w) => counts(w.ctx), done: (w) => w.ctx.close() });
});

describe("the server-rendered page: SMS chosen, with the sentence why", () => {
  const TOKEN = "form-xsrf-token";
  let ctx: TestContext | undefined;
  afterEach(() => ctx?.close());

  const formTag = (html: string) => html.match(/<form[^>]*>/)![0];
  const radio = (html: string, kind: string) => html.match(new RegExp(`<input type="radio" name="contactPreference" value="${kind}"[^>]*>`))![0];
  const note = (html: string) => html.match(/<p id="sub-pref-note"[^>]*>([^<]*)<\/p>/)!;

  test("GET: the page carries what its script needs (default calling code, +1 area codes WhatsApp reaches); the note is hidden", async () => {
    ctx = testContext(ALLOWED);
    const business = insertBusiness(ctx, { name: "Sunrise Bakery" });
    const html = (await apiClient(ctx).call("GET", `/subscribe?id=${business.id}`, { noXsrf: true })).body as string;
    const form = formTag(html);
    expect(form).toContain('data-cc="1"');
    const areas = form.match(/data-wa-areas="([^"]*)"/)![1]!.split(" ");
    expect(areas).toContain("416"); // Toronto
    expect(areas).toContain("604"); // Vancouver
    expect(areas).not.toContain("212"); // New York
    expect(areas).not.toContain("415"); // San Francisco
    expect(radio(html, "WhatsApp")).not.toContain("disabled");
    expect(note(html)[0]).toContain("hidden");
    expect(note(html)[1]!.replace(/&#39;/g, "'")).toBe(WHATSAPP_SMS_INSTEAD);
  });

  test("another default country: its calling code", async () => {
    ctx = testContext({ ...ALLOWED, NEARCAST_DEFAULT_COUNTRY: "GB" });
    const business = insertBusiness(ctx, { name: "Sunrise Bakery" });
    const html = (await apiClient(ctx).call("GET", `/subscribe?id=${business.id}`, { noXsrf: true })).body as string;
    expect(formTag(html)).toContain('data-cc="44"');
  });

  test("POST without JavaScript, a US number by WhatsApp: 400, nothing written; the page comes back with SMS chosen, WhatsApp disabled and why", async () => {
    ctx = testContext(ALLOWED);
    const business = insertBusiness(ctx, { name: "Sunrise Bakery", messagesPerWeek: 3 });
    const res = await apiClient(ctx).call("POST", `/subscribe?id=${business.id}`, {
      noXsrf: true,
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `XSRF-TOKEN=${TOKEN}` },
      body: new URLSearchParams({ _xsrf: TOKEN, phone: "(212) 555-0142", contactPreference: "WhatsApp" }).toString(),
    });
    expect(res.status).toBe(400);
    const html = res.body as string;
    expect(html).toContain(`id="sub-pref-error" class="field-error" role="alert">${WHATSAPP_CHOOSE_SMS.replace(/'/g, "&#39;")}<`);
    expect(radio(html, "WhatsApp")).toContain("disabled");
    expect(radio(html, "SMS")).toContain("checked");
    expect(note(html)[0]).not.toContain("hidden");
    const smsConsent = consentText({ name: "Sunrise Bakery", messagesPerWeek: 3 }, "SMS").replace(/&/g, "&amp;").replace(/'/g, "&#39;");
    expect(html.replace(/<[^>]+>/g, "")).toContain(smsConsent);
    expect(counts(ctx)).toEqual({ customers: 0, subscriptions: 0, consentEvents: 0 });
  });
});

describe("GET /api/customer/GetAllCustomers: a US number on WhatsApp is shown with the reason", () => {
  function world() {
    const ctx = testContext(ALLOWED);
    const w = ownersWorld(ctx);
    const usWhatsApp = insertSubscriber(ctx, w.bakery.id, { phone: US, contactPreference: "WhatsApp" }).customer.id;
    const usSms = insertSubscriber(ctx, w.bakery.id, { phone: "+12125550144", contactPreference: "SMS" }).customer.id;
    const ukWhatsApp = insertSubscriber(ctx, w.bakery.id, { phone: UK, contactPreference: "WhatsApp" }).customer.id;
    const caWhatsApp = insertSubscriber(ctx, w.bakery.id, { phone: TORONTO, contactPreference: "WhatsApp" }).customer.id;
    return { ctx, api: apiClient(ctx), ...w, ids: { usWhatsApp, usSms, ukWhatsApp, caWhatsApp }, tokens: { ownerA: w.ownerA.token, ownerB: w.ownerB.token, admin: w.admin.token } };
  }
  type World = ReturnType<typeof world>;
  type Row = { id: number; whatsappProblem?: string };
  const problems = (rows: Row[], w: World) => Object.fromEntries(Object.entries(w.ids).map(([name, id]) => [name, rows.find((r) => r.id === id)?.whatsappProblem ?? null]));
  const shown = (body: Row[], w: World) =>
    expect(problems(body, w)).toEqual({ usWhatsApp: WHATSAPP_NO_PROMOTIONS, usSms: null, ukWhatsApp: null, caWhatsApp: null });
  runScenarios<World>(
    [
      { name: "the owner: the US WhatsApp subscriber carries the reason; SMS, UK and Canadian ones do not", as: "ownerA", method: "GET", path: "/api/customer/GetAllCustomers", status: 200, expect: shown },
      { name: "the admin: the same", as: "admin", method: "GET", path: "/api/customer/GetAllCustomers", status: 200, expect: shown },
      { name: "another owner: none of them", as: "ownerB", method: "GET", path: "/api/customer/GetAllCustomers", status: 200, expectBody: [] },
      {
        name: "the owner's GetCustomerById: the reason too",
        as: "ownerA",
        method: "GET",
        path: (w) => `/api/customer/GetCustomerById?id=${w.ids.usWhatsApp}`,
        status: 200,
        expectBody: { phone: US, contactPreference: "WhatsApp", whatsappProblem: WHATSAPP_NO_PROMOTIONS },
      },
    ],
    { world: () => world(), done: (w) => w.ctx.close() },
  );
});

describe("a promotion with a template: the US WhatsApp subscriber is skipped with the reason, never texted by SMS instead", () => {
  const fake = fakeTwilioForFile();

  test("the audience counts them with the reason; the publish skips them; no SMS delivery is written for them", async () => {
    const ctx = testContext({ ...fake.settings(), ...ALLOWED, NEARCAST_PUBLIC_URL: PUBLIC_URL, NEARCAST_QUIET_HOURS: "off", NEARCAST_MAX_PER_DAY: "0" });
    try {
      fake.follow(ctx.clock);
      const api = apiClient(ctx);
      const owner = member(ctx);
      const b = insertBusiness(ctx, { ownerId: owner.id });
      const us = insertSubscriber(ctx, b.id, { phone: US, contactPreference: "WhatsApp" }).customer.id;
      const uk = insertSubscriber(ctx, b.id, { phone: UK, contactPreference: "WhatsApp" }).customer.id;
      const audience = await api.get(`/api/business/WhatsAppAudience?businessId=${b.id}`, { token: owner.token });
      expect(audience.status).toBe(200);
      expect(audience.body.usNumbers).toBe(1);
      expect(audience.body.warningWithTemplate).toBe(
        "1 WhatsApp recipient on US (+1) numbers will be skipped: WhatsApp can't deliver promotions to US numbers, and they are not texted by SMS instead. Ask them to subscribe by SMS.",
      );
      const form = new FormData();
      for (const [k, v] of Object.entries({ BusinessId: String(b.id), MessageText: "Hi", ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"Rosa","2":"Hi"}' })) form.append(k, v);
      const res = await api.call("POST", "/api/business/PublishMessageToAllCustomers", { body: form, token: owner.token });
      expect(res.status).toBe(200);
      const rows = ctx.repos.deliveries.listByBroadcast(res.body.broadcastId);
      expect(rows.filter((d) => d.customerId === us).map((d) => [d.channel, d.status, d.errorMessage])).toEqual([["WhatsApp", "Skipped", SKIP_US_MARKETING]]);
      expect(rows.filter((d) => d.customerId === uk).map((d) => [d.channel, d.status])).toEqual([["WhatsApp", "Queued"]]);
    } finally {
      ctx.close();
    }
  });
});
