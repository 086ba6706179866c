// Issue 23 items 6 and 8 in a real browser against the built executable sending through the fake Twilio: a sending
// broadcast is stopped from the history (asked first in the app's dialog), its not-yet-sent messages counted as
// Cancelled and the WhatsApp recipient it could not reach as Skipped (not Failed); and the test panel with a WhatsApp
// template sends the template and shows the delivery report Twilio calls back with. Phone and desktop.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DESKTOP, PHONE, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { logInOnPage, openShop, SHOP_OWNER, type Shop } from "../helpers/e2e-shop.ts";
import { postStatusCallbackTo } from "../helpers/fake-twilio-callbacks.ts";
import { FAKE_TEXT_TEMPLATE_SID, type FakeTwilio, startFakeTwilio } from "../helpers/fake-twilio.ts";
import { until } from "../helpers/until.ts";

const PUBLIC = "https://bakery.e2e.example";
const OWNER_PHONE = "+447400123458";
const SMS_SUBSCRIBERS = 8;
let fake: FakeTwilio;
let shop: Shop;

beforeAll(async () => {
  fake = startFakeTwilio();
  // One message a second: the broadcast is still sending when the owner presses Stop.
  shop = await openShop("nearcast-e2e-stop-", { ...fake.settings(), NEARCAST_PUBLIC_URL: PUBLIC, NEARCAST_SEND_RATE: "1", NEARCAST_ALLOWED_COUNTRIES: "*" });
  const csv = join(shop.dataDir, "people.csv");
  const rows = Array.from({ length: SMS_SUBSCRIBERS }, (_, i) => `+1415555${String(150 + i).padStart(4, "0")},SMS`);
  shop.cli("settings", "set", "allowedCountries", "*");
  // A WhatsApp subscriber who never wrote to the shop: without a template the broadcast skips them (never Failed).
  writeFileSync(csv, ["phone,contactPreference", ...rows, "+447911123456,WhatsApp"].join("\n"));
  shop.cli("customers", "import", "--business", String(shop.businessId), csv);
  const db = new Database(join(shop.dataDir, "nearcast.db"));
  try {
    db.run("UPDATE users SET phone = ?, phone_verified_at = ? WHERE email = ?", [OWNER_PHONE, Date.now(), SHOP_OWNER.email]);
  } finally {
    db.close();
  }
}, 60_000);

afterAll(async () => {
  await shop?.close();
  await fake?.stop();
});

const statusesOf = (text: string) => {
  const db = new Database(join(shop.dataDir, "nearcast.db"), { readonly: true });
  try {
    return db.query("SELECT d.status AS status, count(*) AS n FROM deliveries d JOIN broadcasts b ON b.id = d.broadcast_id WHERE b.message_text = ? GROUP BY 1").all(text) as { status: string; n: number }[];
  } finally {
    db.close();
  }
};

for (const [device, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`stop a sending broadcast; skipped and cancelled counted apart (${device})`, async () => {
    const text = `Last call for rye bread (${device})`;
    shop.cli("broadcast", "send", "--business", String(shop.businessId), "--message", text, "--yes", "--no-wait");
    await inBrowser(viewport, async ({ page }) => {
      await logInOnPage(page, shop.server.url);
      await page.goto(`${shop.server.url}/businesses/broadcast/${shop.businessId}`);
      const row = page.locator(".bc-history-item", { hasText: text });
      await row.getByRole("button", { name: "Stop" }).click();
      const dialog = page.getByRole("dialog", { name: "Stop this broadcast?" });
      await dialog.getByText(/not sent yet will be cancelled/).waitFor();
      await screenshot(page, `broadcast-stop-confirm-${device}`);
      await dialog.getByRole("button", { name: "Stop sending" }).click();
      await page.getByText("Broadcast Stopped", { exact: true }).waitFor();
      await row.locator(".bc-status", { hasText: "Stopped" }).waitFor({ timeout: 10_000 });
      await row.locator(".bc-count-cancelled").waitFor();
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, `broadcast-stopped-${device}`);
      const shown = Object.fromEntries(
        await row.locator(".bc-count").evaluateAll((els) => els.map((el) => [el.querySelector("dt")!.textContent, Number(el.querySelector("dd")!.textContent)])),
      ) as Record<string, number | undefined>;
      expect(shown.Skipped).toBe(1);
      expect(shown.Failed).toBe(0);
      expect(shown.Cancelled).toBeGreaterThan(0);
      expect(shown.Queued).toBe(0);
      expect((shown.Sent ?? 0) + (shown.Delivered ?? 0) + (shown.Cancelled ?? 0)).toBe(SMS_SUBSCRIBERS);
    }, { timeoutMs: 20_000 });
    // What Twilio got is what the history counts as sent; nobody twice.
    const counts = Object.fromEntries(statusesOf(text).map((r) => [r.status, r.n]));
    const sentTo = fake.sends().filter((r) => r.form.Body === text).map((r) => String(r.form.To));
    expect(new Set(sentTo).size).toBe(sentTo.length);
    expect(sentTo.length).toBe((counts.Sent ?? 0) + (counts.Delivered ?? 0));
    expect(counts.Cancelled).toBe(SMS_SUBSCRIBERS - sentTo.length);
    expect(counts.Skipped).toBe(1);
  }, 90_000);

  test(`the test panel with a WhatsApp template shows the delivery report (${device})`, async () => {
    await inBrowser(viewport, async ({ page }) => {
      await logInOnPage(page, shop.server.url);
      await page.goto(`${shop.server.url}/businesses/broadcast/${shop.businessId}`);
      await page.getByLabel("Message Text").fill("Rye is back on Saturday");
      await page.getByLabel("WhatsApp template").selectOption(FAKE_TEXT_TEMPLATE_SID);
      await page.getByLabel("{{1}}").fill("Corner Bakery");
      await page.getByLabel("{{2}}").fill("Rye is back on Saturday");
      const panel = page.locator(".bc-test");
      await panel.getByRole("combobox").selectOption("WhatsApp");
      await panel.getByTestId("test-template").waitFor();
      const before = fake.sends().length;
      await panel.getByRole("button", { name: "Send a test to my phone" }).click();
      await panel.getByText(/^Test sent by WhatsApp \(template weekly_offer\) to \+447400123458\./).waitFor();
      await until(() => fake.sends().length === before + 1);
      const send = fake.sends().at(-1)!;
      expect(send.form.ContentSid).toBe(FAKE_TEXT_TEMPLATE_SID);
      expect(JSON.parse(String(send.form.ContentVariables))).toEqual({ "1": "Corner Bakery", "2": "Rye is back on Saturday" });
      expect(send.form.Body).toBeUndefined();
      const message = [...fake.messages.values()].find((m) => m.contentSid === FAKE_TEXT_TEMPLATE_SID && m.to === `whatsapp:${OWNER_PHONE}` && m.status !== "delivered")!;
      expect(await postStatusCallbackTo(shop.server.url, message, "delivered")).toBe(200);
      fake.setStatus(message.sid, "delivered");
      await panel.getByTestId("test-delivery").getByText("Delivered", { exact: true }).waitFor({ timeout: 10_000 });
      await panel.scrollIntoViewIfNeeded();
      await screenshot(page, `broadcast-test-template-delivered-${device}`);
    }, { timeoutMs: 20_000 });
  }, 90_000);
}
