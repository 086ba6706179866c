import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { launchBrowser, PHONE, screenshot } from "../helpers/browser.ts";
import { type RunningBinary, startBinary } from "../helpers/server.ts";

// Issue 26 item 4: the public pages come rendered from the server (web/prerender.tsx), so with JavaScript off a
// person reads the same words and follows the same links as with it, in this install's brand and contact address;
// a form sent without JavaScript is posted (never a GET carrying the password) and answered with its page again.
let server: RunningBinary;
const BRAND = "Town & Co <Deals>";
const CONTACT = "hello@town-deals.test";
const PAGES = ["/", "/login", "/register", "/forgot-password", "/terms", "/privacy", "/about", "/faq"];

beforeAll(async () => {
  // An admin exists (the first-run setup is not due), so the pages are the rendered ones.
  server = await startBinary({ NEARCAST_ADMIN_EMAIL: "admin@town.test", NEARCAST_BRAND_NAME: BRAND, NEARCAST_CONTACT_EMAIL: CONTACT, NEARCAST_OWNER_SIGNUP: "open" });
  const res = await fetch(`${server.url}/api/auth/Register`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: "XSRF-TOKEN=t", "x-xsrf-token": "t" },
    body: JSON.stringify({ firstName: "Ada", lastName: "Admin", email: "admin@town.test", password: "flour-and-water" }),
  });
  expect(res.status).toBe(201);
});

afterAll(async () => {
  await server.stop();
});

/** What a person reads in the page and where its links lead. */
async function wordsAndLinks(page: Page): Promise<{ title: string; words: string; links: string[] }> {
  return {
    title: await page.title(),
    words: (await page.locator("body").innerText()).replace(/\s+/g, " ").trim(),
    links: await page.locator("a[href]").evaluateAll((as) => as.map((a) => `${a.textContent?.trim()} -> ${a.getAttribute("href")}`)),
  };
}

test("without JavaScript every public page shows the words and links the app shows, in the install's brand", async () => {
  const withJs = await launchBrowser(PHONE);
  const noJs = await launchBrowser(PHONE, { javaScript: false });
  try {
    for (const path of PAGES) {
      await withJs.page.goto(`${server.url}${path}`, { waitUntil: "networkidle" });
      await withJs.page.locator("main h1").first().waitFor();
      await noJs.page.goto(`${server.url}${path}`);
      await screenshot(noJs.page, `public-no-js-${path === "/" ? "home" : path.slice(1)}-phone`);
      const app = await wordsAndLinks(withJs.page);
      const rendered = await wordsAndLinks(noJs.page);
      expect(rendered).toEqual(app);
      expect(rendered.words).toContain(BRAND);
      expect(rendered.words).not.toContain("Nearcast");
    }
    // The list needs its data: the rendered page has the heading and the links around it.
    await noJs.page.goto(`${server.url}/businesses`);
    expect(await noJs.page.locator("main h1").innerText()).toBe(`${BRAND} Businesses`);
    expect((await wordsAndLinks(noJs.page)).links).toContain(`${CONTACT} -> mailto:${CONTACT}`);
  } finally {
    await withJs.close();
    await noJs.close();
  }
});

test("without JavaScript the login, register and forgot-password forms are posted and answered with their page", async () => {
  const { page, close } = await launchBrowser(PHONE, { javaScript: false });
  const sent: { method: string; url: string }[] = [];
  page.on("request", (req) => {
    if (req.resourceType() === "document") sent.push({ method: req.method(), url: req.url() });
  });
  try {
    for (const [path, button] of [
      ["/login", "Login"],
      ["/register", "Create Account"],
      ["/forgot-password", "Send Reset Instructions"],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      await page.getByLabel("Email").fill("someone@town.test");
      if (path !== "/forgot-password") await page.getByLabel("Password", { exact: true }).fill("a-secret-password");
      sent.length = 0;
      await page.getByRole("button", { name: button, exact: true }).click();
      await page.waitForURL(`${server.url}${path}`);
      await page.locator("main h1").waitFor();
      expect(sent[0]).toEqual({ method: "POST", url: `${server.url}${path}` });
      expect(sent.every((r) => !r.url.includes("secret") && !r.url.includes("someone"))).toBe(true);
    }
  } finally {
    await close();
  }
});
