import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DESKTOP, PHONE, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { logInOnPage, openShop, type Shop } from "../helpers/e2e-shop.ts";

// Issue 25 item 2 in a real browser against the built executable: the owner opens Redeem from the nav, types a shared
// code with a customer's phone (valid, green), then the same again (already used on that time, amber), then a code
// that does not exist (unknown). Screenshots of the valid and already-used answers on a phone and a desktop.
let shop: Shop;
const CUSTOMERS = { phone: "+14155550181", desktop: "+14155550182" } as const;

beforeAll(async () => {
  shop = await openShop("nearcast-e2e-coupons-", { NEARCAST_OWNER_SIGNUP: "open", NEARCAST_QUIET_HOURS: "off" });
  for (const phone of Object.values(CUSTOMERS)) {
    expect((await shop.call("POST", "/api/subscription/Subscribe", { businessId: shop.businessId, phone, contactPreference: "SMS" })).status).toBe(200);
  }
  // A broadcast with one code for everyone (scheduled: it is stored, with its coupon, whoever is subscribed yet).
  const at = new Date(Date.now() + 3_600_000).toISOString();
  shop.cli("broadcast", "send", "--business", String(shop.businessId), "--message", "Say SAVE10 at the till: 10% off", "--coupon-code", "save10", "--at", at, "--yes", "--no-wait");
});

afterAll(async () => {
  await shop?.close();
});

/** Types a code (and a phone) on the Redeem screen and waits for the answer; the answer's panel. */
async function redeem(page: Page, code: string, phone: string) {
  await page.getByLabel("Code").fill(code);
  await page.getByLabel("Customer's phone (optional)").fill(phone);
  await page.getByRole("button", { name: "Redeem" }).click();
  const panel = page.getByTestId("redeem-result");
  await panel.waitFor();
  return panel;
}

for (const [device, viewport] of [
  ["phone", PHONE],
  ["desktop", { ...DESKTOP, height: 800 }],
] as const) {
  test(`the Redeem screen: valid, then already used, then unknown (${device})`, async () => {
    await inBrowser(viewport, async ({ page }) => {
      await logInOnPage(page, shop.server.url);
      if (device === "phone") await page.getByRole("button", { name: "Open menu" }).click();
      await page.getByRole("link", { name: "Redeem" }).click();
      await page.waitForURL(`${shop.server.url}/redeem`);
      // The code field has the focus: the owner types at once.
      expect(await page.getByLabel("Code").evaluate((el) => el === document.activeElement)).toBe(true);
      // The login's toast would cover the answer in the screenshots.
      for (const close of await page.getByRole("button", { name: "Close notification" }).all()) await close.click();

      const valid = await redeem(page, "save10", CUSTOMERS[device]);
      expect(await valid.getAttribute("data-result")).toBe("valid");
      expect(await valid.textContent()).toContain("Valid — redeemed");
      expect(await valid.textContent()).toContain(`Customer •••• ${CUSTOMERS[device].slice(-4)}`);
      // Cleared for the next customer.
      expect(await page.getByLabel("Code").inputValue()).toBe("");
      await screenshot(page, `coupons-redeem-valid-${device}`);

      const used = await redeem(page, "SAVE10", CUSTOMERS[device]);
      expect(await used.getAttribute("data-result")).toBe("used");
      expect(await used.textContent()).toMatch(/Already used on [A-Z][a-z]{2} \d{1,2}, \d{4}/);
      await screenshot(page, `coupons-redeem-used-${device}`);

      const unknown = await redeem(page, "NOPE99", "");
      expect(await unknown.getAttribute("data-result")).toBe("unknown");
      expect(await unknown.textContent()).toContain("Unknown code");
    });
  });
}

test("the CLI on the same data dir agrees: the phone customer redeemed SAVE10 already (exit 4)", () => {
  const proc = Bun.spawnSync([`${import.meta.dir}/../../dist/nearcast`, "coupons", "redeem", "SAVE10", "--phone", CUSTOMERS.phone, "--json", "--data-dir", shop.dataDir], { env: { PATH: process.env.PATH ?? "" } });
  expect(proc.exitCode).toBe(4);
  expect(JSON.parse(proc.stdout.toString())).toMatchObject({ code: "coupon_used", redeemedAt: expect.any(String) });
});

test("the broadcast screen's Offer: a unique code per person puts {code} in the message (phone)", async () => {
  await inBrowser(PHONE, async ({ page }) => {
    await logInOnPage(page, shop.server.url);
    await page.goto(`${shop.server.url}/businesses/broadcast/${shop.businessId}`);
    await page.getByLabel(/Message Text/).fill("Show this at the till for 10% off:");
    await page.getByLabel("Coupon").selectOption("unique");
    await page.getByRole("button", { name: "Insert {code}" }).click();
    expect(await page.getByLabel(/Message Text/).inputValue()).toBe("Show this at the till for 10% off: {code}");
    await page.getByLabel("Valid until (optional)").fill(new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10));
    await page.getByRole("group", { name: "Offer" }).scrollIntoViewIfNeeded();
    await screenshot(page, "coupons-offer-phone");
  });
});
