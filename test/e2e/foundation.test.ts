import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DESKTOP, launchBrowser, PHONE, screenshot } from "../helpers/browser.ts";
import { type RunningBinary, startBinary } from "../helpers/server.ts";
import { theAppAfterLogin } from "../helpers/e2e-shop.ts";

// The foundation, as a person uses it in a real browser against the built executable:
// register -> login -> the admin creates a business type -> logout; and an owner is kept out of admin screens.
let server: RunningBinary;
const ADMIN = "admin@corner-bakery.test";

beforeAll(async () => {
  server = await startBinary({ NEARCAST_ADMIN_EMAIL: ADMIN });
});

afterAll(async () => {
  await server.stop();
});

async function register(page: Page, email: string, first: string) {
  await page.goto(`${server.url}/register`);
  await page.getByLabel("First name").fill(first);
  await page.getByLabel("Last name").fill("Baker");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("flour-and-water");
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL(`${server.url}/login`);
  await expect(page.getByText("Registration Successful").isVisible()).resolves.toBe(true);
}

async function login(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("flour-and-water");
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await page.waitForURL(`${server.url}/`);
  await theAppAfterLogin(page);
  await page.getByText("Login Successful").waitFor();
}

for (const [device, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`${device === "desktop" ? "admin" : "owner"} registers, logs in, ${device === "desktop" ? "creates a business type" : "is kept out of admin screens"}, logs out (${device})`, async () => {
    const browser = await launchBrowser(viewport);
    const { page } = browser;
    // Desktop: the configured admin email. Phone: a shop owner, who must be kept out of admin screens.
    const email = device === "desktop" ? ADMIN : "owner@corner-bakery.test";
    try {
      await register(page, email, "Rosa");
      await screenshot(page, `e2e-login-${device}`);
      await login(page, email);
      const openMenu = async () => {
        if (device === "phone") await page.getByRole("button", { name: "Open menu" }).click();
      };
      if (device === "phone") {
        // Escape closes the phone menu and gives focus back to its button.
        await openMenu();
        await page.keyboard.press("Escape");
        const toggle = page.getByRole("button", { name: "Open menu" });
        expect(await toggle.getAttribute("aria-expanded")).toBe("false");
        expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
      }
      await openMenu();
      const nav = page.getByRole("navigation", { name: "Main" });
      if (device === "desktop") {
        await nav.getByRole("link", { name: "Business Types" }).click();
        await page.waitForURL(`${server.url}/business-types`);
        await page.getByRole("link", { name: /Add Business Type/ }).click();
        await page.waitForURL(`${server.url}/business-types/add`);
        await page.getByLabel("Name").fill("Bakery");
        await page.getByLabel("Description").fill("Bread, cakes and pastries baked every morning");
        await screenshot(page, `e2e-type-form-${device}`);
        await page.getByRole("button", { name: "Create Business Type" }).click();
        await page.waitForURL(`${server.url}/business-types`);
        await page.getByText("Bread, cakes and pastries baked every morning").waitFor();
        await screenshot(page, `e2e-type-list-${device}`);
        // Stored on the server, not just shown.
        const types = await (await fetch(`${server.url}/api/businesstype/GetAllBusinessTypes`)).json();
        expect(types.map((t: { name: string }) => t.name)).toContain("Bakery");
        await openMenu();
      } else {
        // An owner sees no admin link, and the admin route sends them home.
        expect(await nav.getByRole("link", { name: "Business Types" }).count()).toBe(0);
        await page.goto(`${server.url}/business-types`);
        await page.waitForURL(`${server.url}/`);
        await openMenu();
      }
      const token = await page.evaluate(() => localStorage.getItem("token"));
      expect(token).toBeTruthy();
      await page.getByRole("button", { name: "Logout" }).click();
      await page.waitForURL(`${server.url}/login`);
      expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
      // Logout revoked the token on the server too.
      const me = await fetch(`${server.url}/api/auth/GetCurrentUser`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(401);
      // Guarded routes now send the visitor to /login, which returns to the page asked for.
      await page.goto(`${server.url}/my-business`);
      await page.waitForURL(`${server.url}/login?next=/my-business`);
      expect(await page.title()).toBe("Login · Nearcast");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill("flour-and-water");
      await page.getByRole("button", { name: "Login", exact: true }).click();
      await page.waitForURL(`${server.url}/my-business`);
      expect(await page.title()).toBe("My Business · Nearcast");
    } finally {
      await browser.close();
    }
  }, 60_000);
}
