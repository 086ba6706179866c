import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { DESKTOP, PHONE, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { logInOnPage, openShop, SHOP_OWNER, type Shop } from "../helpers/e2e-shop.ts";
import { type FakeTwilio, startFakeTwilio } from "../helpers/fake-twilio.ts";
import { png } from "../helpers/images.ts";
import { until } from "../helpers/until.ts";

// Issue 24 items 1 and 2 in a real browser against the built executable, Twilio pointed at the fake: a customer's
// signed reply makes the nav's badge and an unread row in the Inbox; the owner opens it, answers, and the answer
// reaches the fake Twilio; the customer's messages show the same conversation.
let shop: Shop;
let fake: FakeTwilio;
const CUSTOMERS = { phone: "+14155550171", desktop: "+14155550172" } as const;

beforeAll(async () => {
  fake = startFakeTwilio();
  shop = await openShop("nearcast-e2e-inbox-", { NEARCAST_OWNER_SIGNUP: "open", NEARCAST_SEND_RATE: "20", NEARCAST_QUIET_HOURS: "off", ...fake.settings() });
  for (const phone of Object.values(CUSTOMERS)) {
    expect((await shop.call("POST", "/api/subscription/Subscribe", { businessId: shop.businessId, phone, contactPreference: "SMS" })).status).toBe(200);
  }
  // Their confirmations reach them before they write back (the thread is in time order).
  await until(() => fake.sends().length === 2, 10_000, "the two confirmations");
});

afterAll(async () => {
  await shop?.close();
  await fake?.stop();
});

/** The viewport as the owner sees it (a full-page shot pins the sticky bar wherever the page was scrolled to). */
const shot = async (page: Page, name: string) => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
};

for (const [device, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`a reply in the Inbox, answered, and on the customer's page (${device})`, async () => {
    const phone = CUSTOMERS[device];
    const question = `Do you have rye today? (${device})`;
    const answer = `Yes, until 2pm! (${device})`;
    // A picture with it (an MMS): the server fetches it from Twilio with the account's credentials and serves it.
    const picture = `${fake.url}${fake.media.add(png(160, 100, (x) => (x < 80 ? [245, 158, 11] : [15, 118, 110])), "image/png")}`;
    const inbound = await fake.sendInbound(`${shop.server.url}/api/webhooks/twilio/inbound`, shop.server.url, { from: phone, body: question, media: [picture] });
    expect(inbound.status).toBe(200);

    await inBrowser(viewport, async ({ page }) => {
      await logInOnPage(page, shop.server.url, SHOP_OWNER);
      if (device === "phone") {
        await page.getByRole("button", { name: "Open menu (1 unread)" }).waitFor();
        await shot(page, `inbox-badge-${device}`);
        await page.getByRole("button", { name: "Open menu (1 unread)" }).click();
      }
      await page.getByRole("link", { name: "Inbox, 1 unread" }).waitFor();
      if (device === "desktop") await shot(page, `inbox-badge-${device}`);
      await page.getByRole("link", { name: "Inbox, 1 unread" }).click();

      const list = page.getByRole("list", { name: "Conversations" });
      const row = list.getByRole("link").filter({ hasText: phone });
      await row.waitFor();
      expect(await row.getAttribute("class")).toContain("is-unread");
      expect(await row.textContent()).toContain(question);
      await shot(page, `inbox-list-${device}`);

      await row.click();
      const thread = page.getByRole("region", { name: `Conversation with ${phone}, Rosa's Corner Bakery` });
      await thread.getByText(question).waitFor();
      const img = thread.getByRole("img", { name: "Picture the customer sent" });
      await img.waitFor();
      await until(async () => (await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)) === 160, 5000, "the picture drawn");
      // Reading it read it: the badge is gone.
      await page.locator('a.nav-link[href="/inbox"]:not([aria-label])').waitFor({ state: "attached" });
      if (device === "phone") expect(await list.isVisible()).toBe(false);

      await thread.getByLabel("Your reply").fill(answer);
      await thread.getByRole("button", { name: "Send reply" }).click();
      await thread.getByRole("listitem").filter({ hasText: answer }).waitFor();
      expect(await thread.getByLabel("Your reply").inputValue()).toBe("");
      await until(() => fake.sends().some((s) => s.form.To === phone && s.form.Body === answer), 10_000, "the answer at the fake Twilio");
      // The thread reads itself again while the answer waits in the outbox: its status moves on.
      await thread.getByRole("listitem").filter({ hasText: answer }).getByText("Sent", { exact: true }).waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `inbox-thread-${device}`);

      // The customer's page: their messages carry the conversation with the business, the answer in it.
      await page.goto(`${shop.server.url}/customers`);
      await page.getByRole("row").filter({ hasText: phone }).getByRole("button", { name: "Messages" }).click();
      const dialog = page.getByRole("dialog", { name: "Customer Messages" });
      const conversation = dialog.getByRole("region", { name: `Conversation with ${phone}, Rosa's Corner Bakery` });
      await conversation.getByText(question).waitFor();
      await conversation.getByText(answer).waitFor();
      await shot(page, `inbox-customer-thread-${device}`);
    }, { timeoutMs: 15_000 });
  }, 90_000);
}
