// Every public page of the built executable, as a browser or a crawler first gets it (before any script runs), has
// what Lighthouse's SEO and accessibility audits look for in a page's head (issue 26 item 5): the language, a viewport
// for phones, a title and one non-empty meta description. Whether the app or the server renders the page.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { subscribeDescription } from "../../src/schemas/page-descriptions.ts";
import { insertUser } from "../helpers/factories.ts";
import { seedShop } from "../helpers/seed-shop.ts";
import { type RunningBinary, startBinary } from "../helpers/server.ts";

const PAGES = ["/", "/businesses", "/login", "/register", "/forgot-password", "/terms", "/privacy", "/about", "/faq"];
const work = mkdtempSync(join(tmpdir(), "nearcast-public-head-"));
let server: RunningBinary;
let businessId: number;

beforeAll(async () => {
  const dataDir = join(work, "data");
  businessId = await seedShop(dataDir, { ownerEmail: "rosa@example.com", businessName: "Rosa's Corner Bakery", subscribers: 0, firstNumber: 0 }, (ctx, id) => {
    insertUser(ctx, { role: "admin", email: "admin@example.com" });
    return id;
  });
  server = await startBinary({}, dataDir);
});
afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The page's head, as served. */
async function headOf(path: string): Promise<string> {
  const res = await fetch(`${server.url}${path}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/html");
  const html = await res.text();
  expect(html).toMatch(/^<!doctype html>\s*<html lang="en">/i);
  return html.slice(0, html.indexOf("</head>"));
}

test.each([...PAGES])("%s: lang, viewport, title and one meta description", async (path) => {
  const head = await headOf(path);
  expect(head).toMatch(/<meta name="viewport" content="width=device-width, initial-scale=1"/);
  expect(head).toMatch(/<title>[^<]+<\/title>/);
  const descriptions = [...head.matchAll(/<meta name="description" content="([^"]+)"/g)];
  expect(descriptions.length).toBe(1);
  expect(descriptions[0]![1]!.length).toBeGreaterThanOrEqual(50);
});

test("/subscribe?id=N: the business's own description", async () => {
  const head = await headOf(`/subscribe?id=${businessId}`);
  const content = /<meta name="description" content="([^"]+)"/.exec(head)?.[1]?.replace(/&#39;/g, "'");
  expect(content).toBe(subscribeDescription("Rosa's Corner Bakery"));
});

test.each(["/terms", "/privacy"])("%s: 'Last updated' is the server's today (the page was rendered at build time)", async (path) => {
  const before = new Date();
  const html = await (await fetch(`${server.url}${path}`)).text();
  // The day before and after the request: at midnight the server may have answered with either.
  const days = [before, new Date()].map((d) => [d.toLocaleDateString("sv-SE"), d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" })]);
  const shown = /Last updated: <time datetime="([^"]+)">([^<]+)<\/time>/i.exec(html);
  expect(shown).not.toBeNull();
  expect(days).toContainEqual(shown!.slice(1));
  expect(html).toMatch(new RegExp(`© (${before.getFullYear()}|${new Date().getFullYear()})`));
  expect(html).not.toContain("January 2, 2000"); // the build's day (web/prerender.tsx RENDER_DAY)
  expect(html).not.toContain("© 2000");
});
