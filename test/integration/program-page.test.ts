// The public program page (issue 23, item 1): every fact it states is what the subscribe page shows and what a new
// subscriber really receives (the confirmation, sent through the fake Twilio): one source for the words. Not the
// scenario runner: the page is server-rendered HTML.
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { businesses } from "../../src/db/schema.ts";
import { programFacts } from "../../src/schemas/program-facts.ts";
import { apiClient, PUBLIC_URL } from "../helpers/api.ts";
import { allDeliveries } from "../helpers/delivery-factories.ts";
import { dispatchUntil } from "../helpers/dispatch-run.ts";
import { insertBusiness, insertBusinessType } from "../helpers/factories.ts";
import { isPdf, pdfText } from "../helpers/pdf-text.ts";
import { closing, contextFollowing, fakeTwilioForFile } from "../helpers/worlds.ts";

const fake = fakeTwilioForFile({ resetEach: true });

function world() {
  const ctx = contextFollowing(fake, { ...fake.settings(), NEARCAST_PUBLIC_URL: PUBLIC_URL });
  const type = insertBusinessType(ctx, { name: "Bakery" });
  const shop = insertBusiness(ctx, { name: "Rosa's Bakery & Café", address: "12 Main St, Springfield", phone: "+14155550100", messagesPerWeek: 3, businessTypeId: type.id });
  return { ctx, api: apiClient(ctx), shop };
}

const decode = (s: string) =>
  s.replace(/<[^>]+>/g, "").replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();
/** The text of the element carrying data-testid="<id>" (its first closing tag of that kind ends it). */
function fact(html: string, id: string): string {
  const m = new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</(div|p|h1|a)>`).exec(html);
  if (!m) throw new Error(`no ${id} in the page`);
  return decode(m[1]!);
}

describe("GET /program", () => {
  test("every fact equals what the subscribe page shows and what the confirmation says", async () => {
    await closing(world(), async ({ ctx, api, shop }) => {
      const page = await api.call("GET", `/program?id=${shop.id}`, { noXsrf: true });
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = page.body as string;
      expect(fact(html, "program-name")).toBe("Rosa's Bakery & Café");
      expect(fact(html, "program-address")).toBe("12 Main St, Springfield");
      expect(fact(html, "program-subscribe-link")).toBe(`${PUBLIC_URL}/subscribe?id=${shop.id}`);

      // The consent words and the frequency: those the subscribe page shows beside its button.
      const subscribe = (await api.call("GET", `/subscribe?id=${shop.id}`, { noXsrf: true })).body as string;
      const shownAtSignUp = decode(/data-testid="consent">([\s\S]*?)<\/p>/.exec(subscribe)![1]!);
      const consent = fact(html, "program-consent");
      expect(consent).toBe(shownAtSignUp);
      const frequency = fact(html, "program-frequency");
      expect(frequency).toBe("Recurring promotional messages by SMS/WhatsApp, up to 3 per week.");
      expect(shownAtSignUp).toContain(frequency.slice(1, -1)); // the same words, mid-sentence there
      expect(subscribe).toContain('data-per-week="3"');
      const disclosure = fact(html, "program-disclosure");
      expect(disclosure).toStartWith("Msg & data rates may apply. Reply STOP to cancel, HELP for help.");
      expect(shownAtSignUp).toContain("Msg & data rates may apply. Reply STOP to cancel, HELP for help.");

      // The confirmation: what the fake Twilio received for a real subscription.
      expect((await api.post("/api/subscription/Subscribe", { businessId: shop.id, phone: "(415) 555-0134", contactPreference: "SMS" })).status).toBe(200);
      await dispatchUntil(ctx, () => allDeliveries(ctx).every((d) => d.status !== "Queued" && d.status !== "Sending"), 20);
      const sent = fake.sends().map((r) => String(r.form.Body));
      expect(sent).toHaveLength(1);
      expect(fact(html, "program-confirmation")).toBe(sent[0]!);

      // Each from the one function the page is built on.
      const facts = programFacts({ name: shop.name, messagesPerWeek: 3, doubleOptIn: false });
      expect([consent, frequency, sent[0]]).toEqual([facts.consent, `${facts.frequency}.`, facts.confirmation]);

      // The legal pages, the poster, and the way back from the subscribe page.
      expect(html).toContain('href="/terms"');
      expect(html).toContain('href="/privacy"');
      expect(html).toContain(`href="/program/poster.pdf?id=${shop.id}"`);
      expect(html).toContain(`src="/api/business/GetQRCodeImage?id=${shop.id}"`);
      expect(subscribe).toContain(`<a href="/program?id=${shop.id}">Program details</a>`);
    });
  });

  test("a double opt-in business: the page shows the YES confirmation it really sends", async () => {
    await closing(world(), async ({ ctx, api, shop }) => {
      ctx.db.update(businesses).set({ doubleOptIn: true }).where(eq(businesses.id, shop.id)).run();
      const html = (await api.call("GET", `/program?id=${shop.id}`, { noXsrf: true })).body as string;
      await api.post("/api/subscription/Subscribe", { businessId: shop.id, phone: "(415) 555-0135", contactPreference: "SMS" });
      await dispatchUntil(ctx, () => allDeliveries(ctx).every((d) => d.status !== "Queued" && d.status !== "Sending"), 20);
      expect(fact(html, "program-confirmation")).toBe(String(fake.sends()[0]!.form.Body));
      expect(fact(html, "program-confirmation")).toContain("reply YES");
    });
  });

  test("an unknown, inactive or malformed id: the 404 page", async () => {
    await closing(world(), async ({ ctx, api, shop }) => {
      const inactive = insertBusiness(ctx, { isActive: false });
      for (const id of ["999999", String(inactive.id), "abc", ""]) {
        const res = await api.call("GET", `/program?id=${id}`, { noXsrf: true });
        expect(res.status).toBe(404);
        expect(res.body).toContain("Business not found");
        expect(res.body).not.toContain(shop.name);
      }
    });
  });
});

describe("GET /program/poster.pdf", () => {
  test("anyone gets an active business's poster, which names the program page; an inactive one is 404", async () => {
    await closing(world(), async ({ ctx, api, shop }) => {
      const res = await api.app.request(`/program/poster.pdf?id=${shop.id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(isPdf(bytes)).toBe(true);
      expect(pdfText(bytes).replace(/\s*\n\s*/g, " ")).toContain(`Program details: deals.example.com/program?id=${shop.id}`);
      // Kept rendered, yet a renamed business gets its new name on the next request.
      ctx.db.update(businesses).set({ name: "Rosa's Second Bakery" }).where(eq(businesses.id, shop.id)).run();
      const renamed = new Uint8Array(await (await api.app.request(`/program/poster.pdf?id=${shop.id}`)).arrayBuffer());
      expect(pdfText(renamed)).toContain("Rosa's Second Bakery");
      const inactive = insertBusiness(ctx, { isActive: false });
      expect((await api.get(`/program/poster.pdf?id=${inactive.id}`)).status).toBe(404);
      expect((await api.get("/program/poster.pdf?id=x")).status).toBe(404);
    });
  });
});
