import { expect, test } from "bun:test";
import { launchBrowser, PHONE, screenshot } from "../helpers/browser.ts";
import { httpClient, startBinary } from "../helpers/server.ts";
import { until } from "../helpers/until.ts";

// A brand-new install in a real browser against the built executable (issue 9): every screen but the customer's
// opens on the setup screen; it creates the first admin, logged in at once, who finds the eight seeded business
// types; after that /setup goes home and a second setup is refused. Since issue 21 the screen needs the setup code
// serve printed: opened without it, it asks for it and says where it is; the printed link fills it in unseen, and the
// address the screen was opened at becomes the public URL.
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

      // Anything else goes to the setup screen, which asks for the code and says where it is.
      await page.goto(`${server.url}/login`);
      await page.waitForURL(`${server.url}/setup`);
      expect(await page.title()).toBe("Set Up · Nearcast");
      await page.getByText("This creates the first admin account of this Nearcast server.").waitFor();
      await page.getByLabel("Setup code").waitFor();
      await page.getByText("The setup link is printed in the terminal where nearcast serve runs, and in its log (journalctl -u nearcast).").waitFor();
      await screenshot(page, `first-run-setup-no-code-${device}`);

      // An empty submit names every field.
      await page.getByRole("button", { name: "Create Admin Account" }).click();
      await page.getByText("Please fix the following errors:").waitFor();
      await screenshot(page, `first-run-setup-errors-${device}`);

      // A wrong code: refused, nothing made.
      await page.getByLabel("Setup code").fill("not-the-code");
      await page.getByLabel("First name").fill("Mallory");
      await page.getByLabel("Last name").fill("X");
      await page.getByLabel("Email").fill("mallory@x.test");
      await page.getByLabel("Password", { exact: true }).fill("123456");
      await page.getByRole("button", { name: "Create Admin Account" }).click();
      await page.getByText("This setup code is not valid", { exact: false }).first().waitFor();
      expect((await httpClient(server.url)("GET", "/api/site")).body).toMatchObject({ setupNeeded: true });

      // The link serve printed: the code is filled in out of sight, the public URL is the address opened.
      const line = /First run: open \S+\/setup\?code=([A-Za-z0-9_-]{43}) /;
      await until(() => line.test(server.log()), 10_000, "the setup line");
      const code = line.exec(server.log())![1]!;
      await page.goto(`${server.url}/setup?code=${code}`);
      await page.getByLabel("First name").waitFor();
      expect(await page.getByLabel("Setup code").count()).toBe(0);
      expect(await page.getByLabel("Public URL").inputValue()).toBe(server.url);
      await screenshot(page, `first-run-setup-${device}`);

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
      const again = await call("POST", "/api/setup", { firstName: "M", lastName: "X", email: "m@x.test", password: "123456", code });
      expect(again.status).toBe(409);
      expect((await call("GET", "/api/site")).body).toMatchObject({ setupNeeded: false, publicUrl: server.url, publicUrlSource: "saved" });
    } finally {
      await browser.close();
      await server.stop();
    }
  }, 60_000);
}
