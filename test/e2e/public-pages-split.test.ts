import { afterAll, beforeAll, expect, test } from "bun:test";
import { DESKTOP, launchBrowser, PHONE, requestedPaths, screenshot } from "../helpers/browser.ts";
import { type RunningBinary, startBinary } from "../helpers/server.ts";
import { theAppAfterLogin } from "../helpers/e2e-shop.ts";

// Issue 26 item 4: a visitor's public page loads only its own script (web/public/, on Preact), never the app (React)
// nor the owner's screens (web/owner-screens.ts, a chunk of its own); the app comes once someone logs in, also on a
// public page, and the owner's chunk when they open one of its screens. Screenshots of every public page.
let server: RunningBinary;
const ADMIN = "admin@corner-bakery.test";
const PUBLIC = ["/", "/businesses", "/login", "/register", "/forgot-password", "/terms", "/privacy", "/about", "/faq"];
let registered = false;
const OWNER_CHUNK = /\/assets\/owner-screens-[A-Z0-9]+\.js$/;
const APP = /\/assets\/app-[A-Z0-9]+\.js$/;
const PAGE_SCRIPT = /\/assets\/page-[a-z-]+-[A-Z0-9]+\.js$/;

beforeAll(async () => {
  server = await startBinary({ NEARCAST_ADMIN_EMAIL: ADMIN });
});

afterAll(async () => {
  await server.stop();
});

for (const [device, viewport] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const) {
  test(`the public pages load without the owner's screens; they come after login (${device})`, async () => {
    const browser = await launchBrowser(viewport);
    const { page } = browser;
    const scripts = requestedPaths(page, "script");
    try {
      for (const path of PUBLIC) {
        await page.goto(`${server.url}${path}`, { waitUntil: "networkidle" });
        await page.locator("main h1").first().waitFor();
        await screenshot(page, `public-${path === "/" ? "home" : path.slice(1)}-${device}`);
      }
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((s) => !PAGE_SCRIPT.test(s))).toEqual([]);

      // The admin (the configured email) registers on the first run, logs in, then opens an admin screen.
      if (!registered) {
        await page.goto(`${server.url}/register`);
        await page.getByLabel("First name").fill("Rosa");
        await page.getByLabel("Last name").fill("Baker");
        await page.getByLabel("Email").fill(ADMIN);
        await page.getByLabel("Password", { exact: true }).fill("flour-and-water");
        await page.getByRole("button", { name: "Create Account" }).click();
        await page.waitForURL(`${server.url}/login`);
        registered = true;
      } else {
        await page.goto(`${server.url}/login`);
      }
      await page.getByLabel("Email").fill(ADMIN);
      await page.getByLabel("Password", { exact: true }).fill("flour-and-water");
      await page.getByRole("button", { name: "Login", exact: true }).click();
      // Home is a public page: the app takes it over (the owner's links), with the login's toast carried over.
      await page.getByText("Login Successful").waitFor();
      await page.waitForURL(`${server.url}/`);
      await theAppAfterLogin(page);
      expect(scripts.filter((s) => APP.test(s)).length).toBe(1);
      expect(scripts.filter((s) => OWNER_CHUNK.test(s))).toEqual([]);

      await page.goto(`${server.url}/business-types`);
      await page.getByRole("heading", { name: "Business Types" }).waitFor();
      expect(scripts.filter((s) => OWNER_CHUNK.test(s)).length).toBe(1);
    } finally {
      await browser.close();
    }
    // Nine pages, each waited for until the network is idle (0.5 s), then a login: ~10 s alone, 20 s once on a busy box.
  }, 60_000);
}
