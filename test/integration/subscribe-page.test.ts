// Not the scenario runner: the page is server-rendered HTML (its 404 too), not the JSON the runner checks.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { businesses, consentEvents, subscriptions } from "../../src/db/schema.ts";
import { createApp } from "../../src/http/app.ts";
import { consentText } from "../../src/schemas/consent.ts";
import { answerOf, apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { counts } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";

// The server-rendered subscribe page (issue 12 item 1): GET renders the business and its form; POST is that form
// without JavaScript, answered with the page again. Same rules, texts and records as the API's Subscribe.
const TOKEN = "form-xsrf-token";
const FORM_HEADERS = { "content-type": "application/x-www-form-urlencoded", cookie: `XSRF-TOKEN=${TOKEN}` };

function setup(env: Record<string, string> = {}) {
  const ctx = testContext(env);
  const api = apiClient(ctx);
  const business = insertBusiness(ctx, { name: "Sunrise Bakery", successMessage: "Thanks! Fresh deals are on their way.", messagesPerWeek: 3 });
  const post = (fields: Record<string, string>, opts: { query?: string; headers?: Record<string, string>; ip?: string } = {}) =>
    api.call("POST", `/subscribe?id=${business.id}${opts.query ?? ""}`, {
      noXsrf: true,
      ip: opts.ip,
      headers: { ...FORM_HEADERS, ...opts.headers },
      body: new URLSearchParams({ _xsrf: TOKEN, ...fields }).toString(),
    });
  return { ctx, api, business, post };
}

const fieldError = (html: string, id: string) => html.match(new RegExp(`id="${id}" class="field-error" role="alert">([^<]*)<`))?.[1];

describe("GET /subscribe", () => {
  test("renders the business, the form posting back to itself with this browser's XSRF token, and the consent words", async () => {
    const { api, business } = setup();
    const res = await api.call("GET", `/subscribe?id=${business.id}&src=list`, { noXsrf: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    const html = res.body as string;
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("<title>Subscribe · Nearcast</title>");
    expect(html).toContain("<h1>Sunrise Bakery</h1>");
    expect(html).toContain(`action="/subscribe?id=${business.id}&amp;src=list"`);
    // The hidden field echoes the cookie handed out with the same answer.
    const cookie = res.headers.get("set-cookie")!.match(/XSRF-TOKEN=([^;]+)/)![1];
    expect(html).toContain(`<input type="hidden" name="_xsrf" value="${cookie}"/>`);
    const consent = consentText({ name: "Sunrise Bakery", messagesPerWeek: 3 }, null).replace(/&/g, "&amp;").replace(/'/g, "&#39;");
    expect(html.replace(/<[^>]+>/g, "")).toContain(consent);
    expect(html).not.toContain('type="checkbox"');
  });

  test("a visitor who already has the cookie gets a form carrying that same token", async () => {
    const { api, business } = setup();
    const res = await api.call("GET", `/subscribe?id=${business.id}`, { noXsrf: true, headers: { cookie: `XSRF-TOKEN=${TOKEN}` } });
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.body).toContain(`name="_xsrf" value="${TOKEN}"`);
  });

  test("the business's own texts are escaped, not markup", async () => {
    const ctx = testContext();
    const business = insertBusiness(ctx, { name: "<script>alert(1)</script> Deli", sampleProductText: '"><img src=x onerror=alert(2)>' });
    const res = await apiClient(ctx).call("GET", `/subscribe?id=${business.id}`, { noXsrf: true });
    expect(res.body).not.toContain("<script>alert(1)");
    expect(res.body).not.toContain("<img src=x");
    expect(res.body).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Deli");
  });

  for (const [name, query] of [["no id", ""], ["an id that is not a number", "?id=abc"], ["an unknown id", "?id=999999"], ["an inactive business", "inactive"]] as const) {
    test(`${name}: the not-found page with a 404`, async () => {
      const { ctx, api, business } = setup();
      if (query === "inactive") ctx.db.update(businesses).set({ isActive: false }).where(eq(businesses.id, business.id)).run();
      const res = await api.call("GET", query === "inactive" ? `/subscribe?id=${business.id}` : `/subscribe${query}`, { noXsrf: true });
      expect(res.status).toBe(404);
      expect(res.body).toContain("<h1>Business not found</h1>");
      expect(res.body).not.toContain("<form");
    });
  }

  test("compressed when the browser takes gzip", async () => {
    const { api, business } = setup();
    const res = await api.app.request(`/subscribe?id=${business.id}`, { headers: { "accept-encoding": "gzip, br" } }, { requestIP: () => ({ address: "203.0.113.1" }) });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toContain("Accept-Encoding");
    const html = new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await res.arrayBuffer())));
    expect(html).toContain("<h1>Sunrise Bakery</h1>");
  });

  test("with the build's assets: the stylesheet and the small script inlined (the script allowed by its hash in the CSP), nothing of the app bundle", async () => {
    const ctx = testContext();
    const business = insertBusiness(ctx, { name: "Sunrise Bakery" });
    const dir = mkdtempSync(join(tmpdir(), "nearcast-page-assets-"));
    writeFileSync(join(dir, "page.css"), ".sub-card>p{border-radius:16px}");
    writeFileSync(join(dir, "enhance.js"), 'document.body.dataset.x="</script>";');
    const asset = (file: string, type: string) => ({ file: join(dir, file), type, immutable: true });
    const app = createApp(ctx, {
      assets: { "/assets/subscribe-page-H.css": asset("page.css", "text/css"), "/assets/app-H.js": asset("app.js", "text/javascript"), "/assets/enhance-H.js": asset("enhance.js", "text/javascript") },
      subscribePage: { css: "/assets/subscribe-page-H.css", js: "/assets/enhance-H.js" },
    });
    const res = await answerOf<string>(await app.request(`/subscribe?id=${business.id}`, {}, { requestIP: () => ({ address: "203.0.113.1" }) }));
    expect(res.body).toContain("<style>.sub-card>p{border-radius:16px}</style>");
    // A "</script" inside the script cannot end the element early.
    const inlined = 'document.body.dataset.x="<\\/script>";';
    expect(res.body).toContain(`<script type="module">${inlined}</script></body>`);
    expect(res.body).not.toContain("app-H.js");
    expect(res.body).not.toContain("enhance-H.js");
    // The CSP allows that one inline script by its hash, and the header is the same on every answer (the API's too).
    const hash = new Bun.CryptoHasher("sha256").update(inlined).digest("base64");
    expect(res.headers.get("content-security-policy")).toContain(`script-src 'self' 'sha256-${hash}';`);
    const api = await app.request("/api/health");
    expect(api.headers.get("content-security-policy")).toBe(res.headers.get("content-security-policy"));
  });
});

describe("the subscribe page's opener policy", () => {
  test("GET and POST /subscribe are not opener-isolated; every other security header stays, and the login page and the API keep same-origin", async () => {
    const { api, business, post } = setup();
    const answers = [await api.call("GET", `/subscribe?id=${business.id}`, { noXsrf: true }), await api.call("GET", "/subscribe?id=99999", { noXsrf: true }), await post({ phone: "(415) 555-0100", contactPreference: "SMS" })];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 200]);
    for (const res of answers) {
      expect(res.headers.get("cross-origin-opener-policy")).toBe("unsafe-none");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    }
    for (const path of ["/login", "/api/health", `/my-subscriptions`]) {
      const res = await api.call("GET", path, { noXsrf: true });
      expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    }
  });
});

describe("POST /subscribe (the form without JavaScript)", () => {
  test("subscribes and answers with the business's success message; stores the consent words of the channel chosen", async () => {
    // Toronto: a US number cannot subscribe by WhatsApp (issue 23 item 7).
    const { ctx, business, post } = setup({ NEARCAST_ALLOWED_COUNTRIES: "US,CA" });
    const res = await post({ phone: "(416) 555-0134", contactPreference: "WhatsApp", source: "ignored" }, { query: "&src=list" });
    expect(res.status).toBe(200);
    expect(res.body).toContain("You&#39;re subscribed!");
    expect(res.body).toContain("Thanks! Fresh deals are on their way.");
    expect(res.body).not.toContain("<form");
    const [sub] = ctx.db.select().from(subscriptions).all();
    expect(sub).toMatchObject({ businessId: business.id, contactPreference: "WhatsApp", source: "list", status: "active" });
    const [event] = ctx.db.select().from(consentEvents).all();
    expect(event?.consentText).toBe(consentText({ name: "Sunrise Bakery", messagesPerWeek: 3 }, "WhatsApp"));
  });

  test("empty: 400, both fields' texts, nothing written", async () => {
    const { ctx, post } = setup();
    const res = await post({});
    expect(res.status).toBe(400);
    expect(fieldError(res.body, "sub-phone-error")).toBe("Phone number is required");
    expect(fieldError(res.body, "sub-pref-error")).toBe("Please select a contact preference");
    expect(counts(ctx)).toEqual({ customers: 0, subscriptions: 0, consentEvents: 0 });
  });

  test("a number that cannot be real: 400 with the spec's text; the number and channel come back as typed", async () => {
    const { ctx, post } = setup();
    const res = await post({ phone: "+1 555 555 5555", contactPreference: "SMS" });
    expect(res.status).toBe(400);
    expect(fieldError(res.body, "sub-phone-error")).toBe("Please enter a valid phone number");
    expect(res.body).toContain('value="+1 555 555 5555"');
    expect(res.body).toMatch(/value="SMS" checked=""/);
    expect(counts(ctx).customers).toBe(0);
  });

  test("no XSRF field, or one that does not echo the cookie: 403, the form again with a reload hint, nothing written", async () => {
    const { ctx, business, api } = setup();
    for (const body of ["phone=4155550134&contactPreference=SMS", `_xsrf=other&phone=4155550134&contactPreference=SMS`]) {
      const res = await api.call("POST", `/subscribe?id=${business.id}`, { noXsrf: true, headers: FORM_HEADERS, body });
      expect(res.status).toBe(403);
      expect(res.body).toContain("Your session token is missing or out of date. Reload the page and try again.");
      expect(res.body).toContain('value="4155550134"');
    }
    expect(counts(ctx).customers).toBe(0);
  });

  test("too many attempts from one network: 429 with Retry-After and the API's text", async () => {
    const { post } = setup({ NEARCAST_SUBSCRIBE_LIMIT: "1" });
    expect((await post({ phone: "4155550134", contactPreference: "SMS" }, { ip: "198.51.100.7" })).status).toBe(200);
    const res = await post({ phone: "4155550135", contactPreference: "SMS" }, { ip: "198.51.100.7" });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(res.body).toContain("Too many subscription attempts from your network.");
  });

  test("a business closed while the page was open: the not-found page, nothing written", async () => {
    const { ctx, business, post } = setup();
    ctx.db.update(businesses).set({ isActive: false }).where(eq(businesses.id, business.id)).run();
    const res = await post({ phone: "4155550134", contactPreference: "SMS" });
    expect(res.status).toBe(404);
    expect(res.body).toContain("<h1>Business not found</h1>");
    expect(counts(ctx).customers).toBe(0);
  });

  test("a body over the JSON limit: 413 before anything is read", async () => {
    const { ctx, post } = setup();
    const res = await post({ phone: "4".repeat(200_000), contactPreference: "SMS" });
    expect(res.status).toBe(413);
    expect(counts(ctx).customers).toBe(0);
  });
});
