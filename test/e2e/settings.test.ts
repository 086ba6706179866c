import { afterAll, beforeAll, expect, test } from "bun:test";
import { UNREACHABLE_LINK_WARNING } from "../../src/schemas/public-url.ts";
import { DESKTOP, launchBrowser, PHONE, screenshot } from "../helpers/browser.ts";
import { httpClient, type RunningBinary, startBinary } from "../helpers/server.ts";

// The Settings screen in a real browser against the built executable: an admin opens it from the menu on 127.0.0.1
// (a link phones cannot open, so the warning shows), saves a public URL, a brand and a Twilio token, and the server
// uses them (the token never comes back); an owner is kept out. Screenshots on a phone and a desktop.
let server: RunningBinary;
const ADMIN = "admin@corner-deals.test";
const OWNER = "owner@corner-deals.test";
const PASSWORD = "flour-and-water";
let adminToken: string;
let ownerToken: string;

beforeAll(async () => {
  server = await startBinary({ NEARCAST_ADMIN_EMAIL: ADMIN });
  const call = httpClient(server.url);
  for (const email of [ADMIN, OWNER]) {
    expect((await call("POST", "/api/auth/Register", { firstName: "Rosa", lastName: "Baker", email, password: PASSWORD })).status).toBe(201);
  }
  adminToken = (await call("POST", "/api/auth/Login", { email: ADMIN, password: PASSWORD })).body.token;
  ownerToken = (await call("POST", "/api/auth/Login", { email: OWNER, password: PASSWORD })).body.token;
});

afterAll(async () => {
  await server.stop();
});

/** A browser page logged in with `token` (as the login screen leaves it: the token in localStorage). */
async function loggedIn(viewport: typeof DESKTOP, token: string) {
  const browser = await launchBrowser(viewport);
  await browser.page.goto(`${server.url}/about`);
  await browser.page.evaluate((t) => localStorage.setItem("token", t), token);
  return browser;
}

for (const [device, viewport] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const) {
  test(`the admin opens Settings from the menu, sees the private-link warning and saves (${device})`, async () => {
    const browser = await loggedIn(viewport, adminToken);
    const { page } = browser;
    try {
      await page.goto(`${server.url}/`);
      if (device === "phone") await page.getByRole("button", { name: "Open menu" }).click();
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
      await page.waitForURL(`${server.url}/settings`);
      expect(await page.title()).toBe("Settings · Nearcast");
      await page.getByText(UNREACHABLE_LINK_WARNING).waitFor();
      await page.getByText("Messages are recorded here, not sent").waitFor();
      await screenshot(page, `settings-${device}`);

      if (device === "desktop") {
        await page.getByRole("button", { name: /Use this address/ }).click();
        expect(await page.getByLabel("Public URL").inputValue()).toBe(server.url);
        await page.getByLabel("Public URL").fill("https://deals.example.com");
        await page.getByLabel("Brand name").fill("Corner Deals");
        await page.getByLabel("Auth token").fill("e2e-secret-token-0123456789");
        await page.getByLabel("Send rate").fill("fast");
        await page.getByLabel("Send rate").blur();
        await page.getByText("Send rate must be a number from 0.01 to 10000 (messages per second)").waitFor();
        await screenshot(page, `settings-error-${device}`);
        await page.getByLabel("Send rate").fill("");
        await page.getByRole("button", { name: "Save Settings" }).click();
        await page.getByText("Settings Saved").waitFor();
        // The site was read again: the public link is no longer private.
        await page.getByText(UNREACHABLE_LINK_WARNING).waitFor({ state: "detached" });
        expect(await page.getByLabel("Auth token").inputValue()).toBe("");
        expect(await page.getByLabel("Auth token").getAttribute("placeholder")).toBe("Set (type a new one to replace it)");
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, `settings-saved-${device}`);

        const call = httpClient(server.url);
        const site = (await call("GET", "/api/site")).body;
        expect(site).toMatchObject({ brandName: "Corner Deals", publicUrl: "https://deals.example.com", publicUrlSource: "saved", publicUrlPrivate: false });
        const settings = await call("GET", "/api/settings", undefined, adminToken);
        expect(settings.body.twilioAuthToken).toMatchObject({ set: true, source: "saved" });
        expect(JSON.stringify(settings.body)).not.toContain("e2e-secret-token");
        expect(server.log()).not.toContain("e2e-secret-token");
      }
    } finally {
      await browser.close();
    }
  }, 60_000);
}

test("an owner has no Settings link, and /settings sends them home; the API answers 403", async () => {
  const browser = await loggedIn(PHONE, ownerToken);
  const { page } = browser;
  try {
    await page.goto(`${server.url}/settings`);
    await page.waitForURL(`${server.url}/`);
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "My Business" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).count()).toBe(0);
    expect((await httpClient(server.url)("GET", "/api/settings", undefined, ownerToken)).status).toBe(403);
  } finally {
    await browser.close();
  }
}, 60_000);
