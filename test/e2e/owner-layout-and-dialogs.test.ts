import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { PHONE, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { logInOnPage, openShop, type Shop } from "../helpers/e2e-shop.ts";
import { until } from "../helpers/until.ts";

// Issue 23 item 12 in a real browser against the built executable (sandbox messenger), phone and desktop: the My
// Business card keeps "Subscribers" apart from its count and every button inside the card; the history's counts do
// not run into each other on a phone; deleting a business asks in the app's own dialog with the number of people; the
// Settings Save bar stays on screen while scrolling a long page with unsaved changes.
const DESKTOP = { width: 1280, height: 800 };
const ADMIN = { email: "admin@corner-bakery.test", password: "flour-and-water" };
let shop: Shop;
// Twelve subscribers (one the sandbox fails: numbers ending in 0000), so the history has Delivered and Failed.
const PHONES = [...Array.from({ length: 11 }, (_, i) => `+141555501${String(40 + i)}`), "+14155550000"];

beforeAll(async () => {
  shop = await openShop("nearcast-e2e-small-", { NEARCAST_SEND_RATE: "50", NEARCAST_SUBSCRIBE_LIMIT: "0" });
  for (const phone of PHONES) {
    expect((await shop.call("POST", "/api/subscription/Subscribe", { businessId: shop.businessId, phone, contactPreference: "SMS" })).status).toBe(200);
  }
  shop.cli("broadcast", "send", "--yes", "--business", String(shop.businessId), "--message", "Warm croissants until noon!", "--no-wait");
  await until(async () => {
    const page = (await shop.call("GET", `/api/business/ListBroadcasts?businessId=${shop.businessId}`, undefined, shop.token)).body as { items: { delivered: number; failed: number }[] };
    const b = page.items[0];
    return !!b && b.delivered === 11 && b.failed === 1;
  }, 30_000, "the broadcast to finish");
}, 60_000);

afterAll(async () => {
  await shop?.close();
});

type Box = { left: number; right: number; top: number; bottom: number };
const boxOf = (page: Page, selector: string) =>
  page.$$eval(selector, (els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom })));
const overlaps = (a: Box, b: Box) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;

for (const [device, viewport] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
  test(`My Business card: facts apart, buttons inside; delete asks with the number of people (${device})`, async () => {
    await inBrowser(viewport, async ({ page }) => {
      await logInOnPage(page, shop.server.url);
      await page.goto(`${shop.server.url}/my-business`);
      await page.getByTestId("subscribers").getByText("12 subscribers").waitFor();
      const card = (await boxOf(page, ".biz-card-owner"))[0]!;
      for (const button of await boxOf(page, ".biz-card-owner .biz-actions .btn")) {
        expect(button.left).toBeGreaterThanOrEqual(card.left - 0.5);
        expect(button.right).toBeLessThanOrEqual(card.right + 0.5);
      }
      // Each label stays in its column: it neither overflows it nor touches its value.
      const facts = await page.$$eval(".biz-facts > div", (rows) =>
        rows.map((row) => {
          const dt = row.querySelector("dt")!;
          const dd = row.querySelector("dd")!;
          return { label: dt.textContent, overflow: dt.scrollWidth - dt.clientWidth, gap: dd.getBoundingClientRect().left - dt.getBoundingClientRect().left - dt.scrollWidth };
        }),
      );
      expect(facts.map((f) => f.label)).toContain("Subscribers");
      for (const f of facts) {
        expect(f.overflow).toBeLessThanOrEqual(0);
        expect(f.gap).toBeGreaterThanOrEqual(8);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `small-my-business-${device}`);

      await page.getByRole("button", { name: /^Delete Rosa/ }).click();
      const dialog = page.getByRole("dialog", { name: /^Delete Rosa/ });
      await dialog.getByText("12 people are subscribed to Rosa's Corner Bakery.", { exact: false }).waitFor();
      await dialog.getByText("printed poster", { exact: false }).waitFor();
      await page.screenshot({ path: (await screenshot(page, `small-delete-dialog-${device}`)).replace(/\.png$/, "-viewport.png") });
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
    });
  }, 60_000);
}

test("history counts on a phone: DELIVERED and FAILED do not collide", async () => {
  await inBrowser(PHONE, async ({ page }) => {
    await logInOnPage(page, shop.server.url);
    await page.goto(`${shop.server.url}/businesses/broadcast/${shop.businessId}`);
    const row = page.locator(".bc-history-item").first();
    await row.locator(".bc-count-failed dd").getByText("1").waitFor();
    const counts = await boxOf(page, ".bc-history-item:first-child .bc-count dt");
    expect(counts.length).toBeGreaterThanOrEqual(4);
    for (let i = 0; i < counts.length; i++) for (let j = i + 1; j < counts.length; j++) expect(overlaps(counts[i]!, counts[j]!)).toBe(false);
    const item = (await boxOf(page, ".bc-history-item:first-child"))[0]!;
    for (const c of counts) expect(c.right).toBeLessThanOrEqual(item.right + 0.5);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: (await screenshot(page, "small-history-counts-phone")).replace(/\.png$/, "-viewport.png") });
  });
}, 60_000);

for (const [device, viewport] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
  test(`Settings: Save stays on screen with unsaved changes; a nav tap asks first (${device})`, async () => {
    await inBrowser(viewport, async ({ page }) => {
      await logInOnPage(page, shop.server.url, ADMIN);
      await page.goto(`${shop.server.url}/settings`);
      await page.getByLabel("Brand name").fill("Corner Deals");
      await page.evaluate(() => window.scrollTo(0, 600));
      const bar = (await boxOf(page, ".settings-actions"))[0]!;
      expect(bar.bottom).toBeLessThanOrEqual(viewport.height + 0.5);
      expect(bar.top).toBeGreaterThanOrEqual(0);
      await page.getByTestId("settings-save-bar").getByText("Unsaved changes").waitFor();
      await page.screenshot({ path: (await screenshot(page, `small-settings-save-bar-${device}`)).replace(/\.png$/, "-viewport.png") });
      // The nav bar's link (on a phone, behind the menu button).
      const menu = page.getByRole("button", { name: /menu/i });
      if (await menu.isVisible()) await menu.click();
      await page.getByRole("link", { name: "Customers" }).first().click();
      await page.getByRole("dialog", { name: "Leave without saving?" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/settings");
      await page.getByRole("button", { name: "Stay" }).click();
      expect(await page.getByLabel("Brand name").inputValue()).toBe("Corner Deals");
    });
  }, 60_000);
}

for (const [device, viewport] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
  test(`the session ends while writing a broadcast: Sign in again keeps the text (${device})`, async () => {
    await inBrowser(viewport, async ({ page }) => {
      await logInOnPage(page, shop.server.url);
      await page.goto(`${shop.server.url}/businesses/broadcast/${shop.businessId}`);
      const text = `Half-price baguettes after 5pm (${device})`;
      await page.getByLabel("Message Text").fill(text);
      // The session is revoked elsewhere (a logout on another device, an expiry) while the owner writes.
      const token = await page.evaluate(() => localStorage.getItem("token"));
      expect((await shop.call("POST", "/api/auth/Logout", {}, token!)).status).toBeLessThan(300);
      await page.getByRole("button", { name: "Send Broadcast" }).click();
      await page.getByRole("button", { name: "Sign in again" }).waitFor();
      await page.screenshot({ path: (await screenshot(page, `small-session-ended-${device}`)).replace(/\.png$/, "-viewport.png") });
      await page.getByRole("button", { name: "Sign in again" }).click();
      await page.waitForURL(`${shop.server.url}/login?next=/businesses/broadcast/${shop.businessId}`);
      await page.getByLabel("Email").fill("rosa@corner-bakery.test");
      await page.getByLabel("Password", { exact: true }).fill("flour-and-water");
      await page.getByRole("button", { name: "Login", exact: true }).click();
      await page.waitForURL(`${shop.server.url}/businesses/broadcast/${shop.businessId}`);
      await page.getByText("Your message is back", { exact: false }).waitFor();
      expect(await page.getByLabel("Message Text").inputValue()).toBe(text);
      await page.screenshot({ path: (await screenshot(page, `small-draft-back-${device}`)).replace(/\.png$/, "-viewport.png") });
    });
  }, 60_000);
}
