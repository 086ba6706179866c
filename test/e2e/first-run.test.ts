import { expect, test } from "bun:test";
import { launchBrowser, PHONE, screenshot } from "../helpers/browser.ts";
import { httpClient, startBinary } from "../helpers/server.ts";

// A brand-new install in a real browser against the built executable (issue 9): every screen but the customer's
// opens on the setup screen; it creates the first admin, logged in at once, who finds the eight seeded business
// types; after that /setup goes home and a second setup is refused.
const DESKTOP = { width: 1280, height: 800 };
const SEEDED = ["Auto & Car Service", "Gym & Fitness", "Other", "Pizza", "Real Estate", "Restaurant", "Retail Shop", "Salon & Beauty"];

for (const [device, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`first run: setup screen, first admin, seeded business types (${device})`, async () => {
    const server = await startBinary();
    const browser = await launchBrowser(viewport);
    const { page } = browser;
    try {
      // The customer's pages stay where they are.
      await page.goto(`${server.url}/businesses`);
      await page.getByRole("heading", { level: 1, name: "Nearcast Businesses" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/businesses");

      // Anything else goes to the setup screen.
      await page.goto(`${server.url}/login`);
      await page.waitForURL(`${server.url}/setup`);
      expect(await page.title()).toBe("Set Up · Nearcast");
      await page.getByText("This creates the first admin account of this Nearcast server.").waitFor();
      await screenshot(page, `first-run-setup-${device}`);

      // An empty submit names every field.
      await page.getByRole("button", { name: "Create Admin Account" }).click();
      await page.getByText("Please fix the following errors:").waitFor();
      await screenshot(page, `first-run-setup-errors-${device}`);

      await page.getByLabel("First name").fill("Grace");
      await page.getByLabel("Last name").fill("Hopper");
      await page.getByLabel("Email").fill("grace@corner-bakery.test");
      await page.getByLabel("Password", { exact: true }).fill("flour-and-water");
      await page.getByRole("button", { name: "Create Admin Account" }).click();
      await page.waitForURL(`${server.url}/`);
      await page.getByText("Setup Complete").waitFor();
      expect(await page.evaluate(() => localStorage.getItem("token"))).toBeTruthy();

      // The admin's screen lists the seeded types, all active.
      await page.goto(`${server.url}/business-types`);
      await page.getByRole("heading", { level: 1, name: "Business Types" }).waitFor();
      for (const name of SEEDED) await page.getByText(name, { exact: true }).first().waitFor();
      await screenshot(page, `first-run-business-types-${device}`);

      // Setup is over: the screen goes home, the API refuses a second admin.
      await page.goto(`${server.url}/setup`);
      await page.waitForURL(`${server.url}/`);
      const call = httpClient(server.url);
      const again = await call("POST", "/api/setup", { firstName: "M", lastName: "X", email: "m@x.test", password: "123456" });
      expect(again.status).toBe(409);
      expect((await call("GET", "/api/site")).body).toMatchObject({ setupNeeded: false });
    } finally {
      await browser.close();
      await server.stop();
    }
  }, 60_000);
}
