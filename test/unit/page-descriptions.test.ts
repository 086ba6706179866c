// The meta descriptions of the public pages (issue 26 item 5: Lighthouse's SEO audit wants one on every page): the app's
// static shell says the site's, each public page has its own, and each fits a search result's snippet.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pageDescription, programDescription, SITE_DESCRIPTION, subscribeDescription } from "../../src/schemas/page-descriptions.ts";
import { pageDescription as routeDescription, routes } from "../../web/shared/paths.ts";

const PUBLIC_PAGES = ["/businesses", "/about", "/faq", "/login", "/register", "/forgot-password", "/reset-password", "/terms", "/privacy"];

test("web/index.html carries the site's description, the one home has", () => {
  const html = readFileSync(join(import.meta.dir, "..", "..", "web", "index.html"), "utf8");
  expect(html).toContain(`<meta name="description" content="${SITE_DESCRIPTION}" />`);
  expect(pageDescription("/")).toBe(SITE_DESCRIPTION);
  expect(routeDescription("home")).toBe(SITE_DESCRIPTION);
});

test("every public page has its own description, of 50 to 160 characters", () => {
  const all = PUBLIC_PAGES.map(pageDescription);
  expect(new Set([SITE_DESCRIPTION, ...all]).size).toBe(PUBLIC_PAGES.length + 1);
  for (const d of [SITE_DESCRIPTION, ...all, subscribeDescription("Rosa's Corner Bakery"), programDescription("Rosa's Corner Bakery")]) {
    expect(d.length).toBeGreaterThanOrEqual(50);
    expect(d.length).toBeLessThanOrEqual(160);
  }
});

test("the app's screens take the description of their path; a page without one (a logged-in screen) the site's", () => {
  expect(routeDescription("login")).toBe(pageDescription("/login"));
  expect(routeDescription("privacy")).toBe(pageDescription(routes.privacy.path));
  expect(routeDescription("customers")).toBe(SITE_DESCRIPTION);
  expect(pageDescription("/no-such-page")).toBe(SITE_DESCRIPTION);
});

test("a business's subscribe and program pages name the business", () => {
  expect(subscribeDescription("Rosa's Corner Bakery")).toContain("Rosa's Corner Bakery");
  expect(programDescription("Rosa's Corner Bakery")).toContain("Rosa's Corner Bakery");
});
