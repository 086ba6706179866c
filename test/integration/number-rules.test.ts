// Issue 21 item 2, "one set of number rules on every path that stores a number or texts it": the numbers a new
// owner's CreateCustomer got texted in the audit (+1 900, +44 909, Iridium +881, Inmarsat +870, +979, +1 800) are
// refused on an owner's add and edit, in an import from the Customers screen and from the CLI, with the public page's
// sentences; numbers already stored that break the rules are shown with the reason and Skipped at send (the fake
// Twilio receives nothing for them), by the rules of the moment (Settings can change the allowed countries).
import { describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { deliveries, textBudget } from "../../src/db/schema.ts";
import type { ImportLine } from "../../src/schemas/customer-import.ts";
import { countryNotAllowed, NOT_A_MOBILE } from "../../src/schemas/subscribe-number.ts";
import { readImportFile } from "../../src/lib/csv-import.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { customerTables, insertSubscriber, sessionFor } from "../helpers/customer-factories.ts";
import { allDeliveries, insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";
import { type ApiScenario, request, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { until, VirtualScheduler } from "../helpers/virtual-scheduler.ts";
import { closing, fakeTwilioForFile } from "../helpers/worlds.ts";

const C = "/api/customer";

/** What the audit's new owner added and got texted, 6 of 6: premium, UK premium, satellite, international premium,
 * toll-free. Refused whatever the allowed countries say. */
const PUMPING_NUMBERS: [string, string][] = [
  ["US premium-rate +1 900", "+1 900 555 0134"],
  ["UK premium-rate +44 909", "+44 909 879 0000"],
  ["Iridium satellite +881", "+881 6 1234 5678"],
  ["Inmarsat satellite +870", "+870 773 123 456"],
  ["international premium +979", "+979 1 2345 6789"],
  ["US toll-free +1 800", "+1 800 555 0100"],
];

const ANY_COUNTRY = { NEARCAST_ALLOWED_COUNTRIES: "*" };

interface World extends ScenarioWorld {
  ctx: TestContext;
  bakery: { id: number };
  aliceId: number;
}

function world(env: Record<string, string> = ANY_COUNTRY): World {
  const ctx = testContext(env);
  const rosa = insertUser(ctx);
  const bakery = insertBusiness(ctx, { ownerId: rosa.id, name: "Rosa's Bakery" });
  const alice = insertSubscriber(ctx, bakery.id, { phone: "+14155550134" }).customer;
  return { ctx, api: apiClient(ctx), tokens: { owner: sessionFor(ctx, rosa) }, bakery, aliceId: alice.id };
}

/** Everything a refused number must leave as it was: the people, and no text queued or budgeted. */
function stored(w: World) {
  return {
    ...customerTables(w.ctx),
    deliveries: w.ctx.db.select({ n: count() }).from(deliveries).get()!.n,
    slots: w.ctx.db.select({ n: count() }).from(textBudget).get()!.n,
  };
}

const refusal = (message: string) => ({ error: message, code: "validation_failed" });

// The owner's two ways to put a number in.
const createCustomer = request<World>("owner", "POST", `${C}/CreateCustomer`);
const updateCustomer = request<World>("owner", "PUT", (w) => `${C}/UpdateCustomer?id=${w.aliceId}`);

describe("an owner's add and edit take only numbers the public page takes", () => {
  const scenarios: ApiScenario<World>[] = [];
  for (const [name, phone] of PUMPING_NUMBERS) {
    scenarios.push(
      createCustomer(`CreateCustomer of a ${name} number: 400 naming phone, nothing written, no text`, 400, {
        json: (w) => ({ phone, contactPreference: "SMS", businessId: w.bakery.id }), expectBody: refusal(NOT_A_MOBILE), fields: { phone: NOT_A_MOBILE },
      }),
      updateCustomer(`UpdateCustomer to a ${name} number: 400 naming phone, nothing changed`, 400, {
        json: { phone, contactPreference: "SMS" }, expectBody: refusal(NOT_A_MOBILE), fields: { phone: NOT_A_MOBILE },
      }),
    );
  }
  scenarios.push(
    createCustomer("CreateCustomer of a mobile from a country not allowed: the public page's sentence", 400, {
      env: {}, json: (w) => ({ phone: "+49 151 12345678", contactPreference: "SMS", businessId: w.bakery.id }), fields: { phone: countryNotAllowed(["US"]) },
    }),
    createCustomer("CreateCustomer of a short code: the public page's sentence", 400, {
      json: (w) => ({ phone: "72345", contactPreference: "SMS", businessId: w.bakery.id }), fields: { phone: "Please enter a full mobile number, not a short code." },
    }),
    createCustomer("CreateCustomer of a US mobile is still taken, with its confirmation", 201, {
      json: (w) => ({ phone: "(415) 555-0150", contactPreference: "SMS", businessId: w.bakery.id }),
      expectBody: { phone: "+14155550150" },
      after: (w) => expect(allDeliveries(w.ctx).map((d) => d.toPhone)).toEqual(["+14155550150"]),
    }),
    {
      name: "UpdateCustomer keeping a stored number the rules now refuse: the channel changes, the number stays",
      env: {},
      before: (w) => insertSubscriber(w.ctx, w.bakery.id, { phone: "+447400123456" }),
      as: "owner",
      method: "PUT",
      path: (w) => `${C}/UpdateCustomer?id=${customerTables(w.ctx).customers.find((c) => c.phone === "+447400123456")!.id}`,
      json: { phone: "+447400123456", contactPreference: "WhatsApp" },
      status: 200,
      expectBody: { phone: "+447400123456", contactPreference: "WhatsApp", numberProblem: "not a mobile number from US (the countries this server texts)" },
    },
  );
  runScenarios(scenarios, { world: (s) => world(s.env ?? ANY_COUNTRY), unchanged: stored, done: (w) => w.ctx.close() });
});

describe("an import refuses them row by row, named with their line", () => {
  const csv = ["phone,contactPreference", "(415) 555-0150,SMS", ...PUMPING_NUMBERS.map(([, p]) => `${p},SMS`)].join("\n");
  const expectRefused = (invalid: { line: number; message: string; value: string }[]) =>
    expect(invalid).toEqual(PUMPING_NUMBERS.map(([, phone], i) => ({ line: i + 3, message: NOT_A_MOBILE, value: phone })));

  test("the Customers screen's upload (welcome=1): only the mobile is added and texted", async () =>
    closing(world(), async (w) => {
      const res = await w.api.call("POST", `${C}/ImportCustomers?businessId=${w.bakery.id}&welcome=1`, {
        token: w.tokens!.owner,
        body: csv,
        headers: { "content-type": "text/csv" },
      });
      expect(res.status).toBe(200);
      const summary = (String(res.body).trim().split("\n").map((l) => JSON.parse(l) as ImportLine).at(-1) as { summary: any }).summary;
      expect(summary.added).toEqual([{ line: 2, phone: "+14155550150" }]);
      expectRefused(summary.invalid);
      expect(summary.welcomed).toBe(1);
      expect(customerTables(w.ctx).customers.map((c) => c.phone).sort()).toEqual(["+14155550134", "+14155550150"]);
      expect(allDeliveries(w.ctx).map((d) => d.toPhone)).toEqual(["+14155550150"]);
    }));

  test("the CLI's import (the same importRows): the same refusals", async () =>
    closing(world(), async (w) => {
      const summary = await w.ctx.services.customers.importRows(w.bakery.id, readImportFile(csv, "list.csv"), "list.csv", { welcome: true });
      expect(summary.added).toEqual([{ line: 2, phone: "+14155550150" }]);
      expectRefused(summary.invalid);
      expect(allDeliveries(w.ctx).map((d) => d.toPhone)).toEqual(["+14155550150"]);
    }));
});

describe("numbers stored before the rules (or before Settings changed them) are shown with the reason and never texted", () => {
  const fake = fakeTwilioForFile();
  let ctx: TestContext;

  test("GetAllCustomers and ListCustomers carry numberProblem; a broadcast skips those numbers with the reason and the fake Twilio gets only the good one", async () => {
    ctx = testContext({ ...fake.settings(), NEARCAST_QUIET_HOURS: "off", NEARCAST_MAX_PER_DAY: "0" });
    fake.follow(ctx.clock);
    try {
      const rosa = insertUser(ctx);
      const token = sessionFor(ctx, rosa);
      const bakery = insertBusiness(ctx, { ownerId: rosa.id });
      const good = insertSubscriber(ctx, bakery.id, { phone: "+14155550150" }).customer;
      const tollFree = insertSubscriber(ctx, bakery.id, { phone: "+18005550100" }).customer;
      const uk = insertSubscriber(ctx, bakery.id, { phone: "+447400123456" }).customer;
      const api = apiClient(ctx);
      const all = (await api.get(`${C}/GetAllCustomers`, { token })).body as { phone: string; numberProblem?: string }[];
      const page = (await api.get(`${C}/ListCustomers`, { token })).body.items as typeof all;
      for (const list of [all, page]) {
        expect(Object.fromEntries(list.map((c) => [c.phone, c.numberProblem ?? null]))).toEqual({
          "+14155550150": null,
          "+18005550100": "not a mobile number (premium-rate, toll-free, shared-cost, satellite or landline)",
          "+447400123456": "not a mobile number from US (the countries this server texts)",
        });
      }

      const broadcast = insertBroadcast(ctx, { businessId: bakery.id });
      for (const c of [good, tollFree, uk]) insertDelivery(ctx, broadcast, c, { nextAttemptAt: ctx.clock.now() });
      const sched = new VirtualScheduler(ctx.clock);
      const d = ctx.dispatcherWith({ rate: 50, scheduler: sched });
      d.start();
      try {
        await until(() => allDeliveries(ctx).every((r) => r.status !== "Queued" && r.status !== "Sending"));
      } finally {
        await d.stop();
      }
      const byPhone = Object.fromEntries(allDeliveries(ctx).map((r) => [r.toPhone, [r.status, r.errorMessage]]));
      expect(byPhone).toEqual({
        "+14155550150": ["Sent", null],
        "+18005550100": ["Skipped", "Not sent: not a mobile number (premium-rate, toll-free, shared-cost, satellite or landline)."],
        "+447400123456": ["Skipped", "Not sent: not a mobile number from US (the countries this server texts)."],
      });
      expect(fake.sends().map((r) => r.form.To)).toEqual(["+14155550150"]);

      // Settings decide at send time: with GB allowed, the same UK number goes.
      fake.reset();
      ctx.services.settings.update(OPERATOR, { allowedCountries: "US,GB" });
      const again = insertBroadcast(ctx, { businessId: bakery.id });
      insertDelivery(ctx, again, uk, { nextAttemptAt: ctx.clock.now() });
      const d2 = ctx.dispatcherWith({ rate: 50, scheduler: sched });
      d2.start();
      try {
        await until(() => ctx.db.select().from(deliveries).where(eq(deliveries.broadcastId, again.id)).get()?.status === "Sent");
      } finally {
        await d2.stop();
      }
      expect(fake.sends().map((r) => r.form.To)).toEqual(["+447400123456"]);
    } finally {
      ctx.close();
    }
  });
});
