import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DESKTOP, PHONE, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { logInOnPage, openShop, type Shop } from "../helpers/e2e-shop.ts";
import type { RunningBinary } from "../helpers/server.ts";

// Issue 11 item 5 in a real browser against the built executable (sandbox messenger): the owner turns on "Send
// later", picks a time with the date-time picker, sees when it goes in the preview, schedules it, finds it in the
// history as Scheduled (the API has the time with the browser's offset applied, and no recipients yet), and cancels
// it there: it shows as Cancelled.
let shop: Shop;
let server: RunningBinary;
let call: Shop["call"];
const OWNER = { firstName: "Rosa", lastName: "Baker", email: "rosa@schedule-bakery.test", password: "flour-and-water" };
let businessId = 0;

beforeAll(async () => {
  shop = await openShop("nearcast-e2e-schedule-", { NEARCAST_SEND_RATE: "20" }, OWNER);
  ({ server, businessId, call } = shop);
  for (const phone of ["+14155550151", "+14155550152"]) {
    expect((await call("POST", "/api/subscription/Subscribe", { businessId, phone, contactPreference: "SMS" })).status).toBe(200);
  }
});

afterAll(async () => {
  await shop?.close();
});

/** Two days from now at 09:00 in the browser's zone: the picker's value, and that moment. */
async function nineAmInTwoDays(page: Page): Promise<{ local: string; at: number }> {
  return page.evaluate(() => {
    const d = new Date();
    d.setDate(d.getDate() + 2);
    d.setHours(9, 0, 0, 0);
    const pad = (n: number) => String(n).padStart(2, "0");
    return { local: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T09:00`, at: d.getTime() };
  });
}

for (const [device, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`schedule with the picker, see it in the history, cancel it (${device})`, async () => {
    await inBrowser(viewport, async ({ page }) => {
      const text = `Fresh stollen is back this weekend! (${device})`;
      await logInOnPage(page, server.url, OWNER);
      await page.goto(`${server.url}/businesses/broadcast/${businessId}`);
      await page.getByText(/Will send to 2 subscribers/).waitFor();
      await page.getByLabel("Message Text").fill(text);
      await page.getByRole("switch", { name: "Send later" }).check();
      const { local, at } = await nineAmInTwoDays(page);
      await page.getByLabel("Send on").fill(local);
      await page.getByTestId("preview-when").getByText(/^Scheduled: goes out \w{3}, \w{3} \d{1,2}, 9:00 AM$/).waitFor();
      await screenshot(page, `broadcast-schedule-form-${device}`);

      await page.getByRole("button", { name: "Schedule Broadcast" }).click();
      await page.getByRole("dialog", { name: "Schedule this broadcast?" }).getByRole("button", { name: "Schedule", exact: true }).click();
      await page.getByText("Broadcast Scheduled", { exact: true }).waitFor();
      const row = page.locator(".bc-history-item", { hasText: text });
      await row.getByText("Scheduled", { exact: true }).waitFor();
      await row.getByText(/^Goes out \w{3}, \w{3} \d{1,2}, 9:00 AM$/).waitFor();
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, `broadcast-schedule-history-${device}`);

      const token = await page.evaluate(() => localStorage.getItem("token"));
      const list = async () => {
        const res = await fetch(`${server.url}/api/business/GetBroadcasts?businessId=${businessId}`, { headers: { authorization: `Bearer ${token}` } });
        return ((await res.json()) as { messageText: string; state: string; scheduledFor: string; total: number }[]).filter((b) => b.messageText === text);
      };
      const [stored] = await list();
      expect(stored).toMatchObject({ state: "scheduled", total: 0 });
      expect(Date.parse(stored!.scheduledFor)).toBe(at);

      await row.getByRole("button", { name: "Cancel scheduled broadcast" }).click();
      await page.getByText("Broadcast Cancelled", { exact: true }).waitFor();
      await row.getByText("Cancelled", { exact: true }).waitFor();
      expect(await row.getByRole("button", { name: "Edit" }).count()).toBe(0);
      await screenshot(page, `broadcast-schedule-cancelled-${device}`);
      expect((await list()).map((b) => b.state)).toEqual(["cancelled"]);
    }, { timeoutMs: 15_000 });
  }, 90_000);
}
