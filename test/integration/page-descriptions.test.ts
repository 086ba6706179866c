// The pages rendered on the server carry a meta description (issue 26 item 5: Lighthouse's SEO audit found none on
// /subscribe): a business's subscribe and program pages name it; the others say the site's. Not the scenario runner:
// the answers are HTML.
import { describe, expect, test } from "bun:test";
import { programDescription, SITE_DESCRIPTION, subscribeDescription } from "../../src/schemas/page-descriptions.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { insertBusiness } from "../helpers/factories.ts";

/** The content of the page's one meta description, as the browser reads it (entities decoded). */
function description(html: string): string | undefined {
  const all = [...html.matchAll(/<meta name="description" content="([^"]*)"\/?>/g)];
  expect(all.length).toBe(1);
  return all[0]![1]!.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}

function world() {
  const ctx = testContext();
  return { api: apiClient(ctx), shop: insertBusiness(ctx, { name: "Rosa's Bakery & Café" }) };
}

describe("meta description of the server-rendered pages", () => {
  test("a business's subscribe page names the business, in its head", async () => {
    const { api, shop } = world();
    const res = await api.call("GET", `/subscribe?id=${shop.id}`, { noXsrf: true });
    expect(res.status).toBe(200);
    const html = res.body as string;
    expect(description(html)).toBe(subscribeDescription("Rosa's Bakery & Café"));
    expect(html.indexOf('name="description"')).toBeLessThan(html.indexOf("</head>"));
  });

  test("its program page names it too", async () => {
    const { api, shop } = world();
    const res = await api.call("GET", `/program?id=${shop.id}`, { noXsrf: true });
    expect(res.status).toBe(200);
    expect(description(res.body as string)).toBe(programDescription("Rosa's Bakery & Café"));
  });

  test("an unknown business's page and a dead short link say the site's", async () => {
    const { api } = world();
    const unknown = await api.call("GET", "/subscribe?id=999", { noXsrf: true });
    expect(unknown.status).toBe(404);
    expect(description(unknown.body as string)).toBe(SITE_DESCRIPTION);
    const dead = await api.call("GET", "/l/nosuchcode", { noXsrf: true });
    expect(dead.status).toBe(404);
    expect(description(dead.body as string)).toBe(SITE_DESCRIPTION);
  });
});
