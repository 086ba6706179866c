import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DESKTOP, PHONE, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { logInOnPage, openShop, type Shop } from "../helpers/e2e-shop.ts";
import type { RunningBinary } from "../helpers/server.ts";

// Issue 10, item 8 in a real browser against the built executable (sandbox messenger): the owner sends a broadcast,
// then the same text again within 10 minutes. The screen asks first ("You sent this same message to N customers at
// H:MM. Send it again?"); Send again sends it (Confirm=true), and the API then lists two broadcasts of that text.
let shop: Shop;
let token = "";
let call: Shop["call"];
let server: RunningBinary;
const OWNER = { firstName: "Rosa", lastName: "Baker", email: "rosa@repeat-bakery.test", password: "flour-and-water" };
const SUBSCRIBERS = ["+14155550141", "+14155550142"];
let businessId = 0;

beforeAll(async () => {
  shop = await openShop("nearcast-e2e-repeat-", { NEARCAST_SEND_RATE: "20" }, OWNER);
  ({ server, businessId, token, call } = shop);
  for (const phone of SUBSCRIBERS) {
    expect((await call("POST", "/api/subscription/Subscribe", { businessId, phone, contactPreference: "SMS" })).status).toBe(200);
  }
});

afterAll(async () => {
  await shop?.close();
});

const login = (page: Page) => logInOnPage(page, server.url, OWNER);

async function sendFromScreen(page: Page, text: string) {
  await page.goto(`${server.url}/businesses/broadcast/${businessId}`);
  await page.getByText(/Will send to 2 subscribers/).waitFor();
  await page.getByLabel("Message Text").fill(text);
  await page.getByRole("button", { name: "Send Broadcast" }).click();
  // The confirm step (issue 11) comes first; the repeat question comes after it.
  await page.getByRole("dialog", { name: "Send this broadcast?" }).getByRole("button", { name: "Send", exact: true }).click();
}

for (const [device, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`the same message twice within 10 minutes: the screen asks, Send again sends it (${device})`, async () => {
    await inBrowser(viewport, async ({ page }) => {
      const text = `Two loaves for $6 until we sell out! (${device})`;
      await login(page);
      await sendFromScreen(page, text);
      await page.getByText("Message Sent!").waitFor();
      await page.waitForURL(`${server.url}/my-business`);

      await sendFromScreen(page, text);
      const dialog = page.getByRole("dialog", { name: "Send the same message again?" });
      await dialog.getByText(/^You sent this same message to 2 customers at \d{1,2}:\d\d (AM|PM)\. Send it again\?$/).waitFor();
      await screenshot(page, `repeat-broadcast-dialog-${device}`);

      // Cancel sends nothing; the message stays on the screen.
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      expect(await page.getByLabel("Message Text").inputValue()).toBe(text);

      await page.getByRole("button", { name: "Send Broadcast" }).click();
      await page.getByRole("dialog", { name: "Send this broadcast?" }).getByRole("button", { name: "Send", exact: true }).click();
      await dialog.getByRole("button", { name: "Send again" }).click();
      await page.getByText("Message Sent!").waitFor();
      await page.waitForURL(`${server.url}/my-business`);

      const token = await page.evaluate(() => localStorage.getItem("token"));
      const res = await fetch(`${server.url}/api/business/GetBroadcasts?businessId=${businessId}`, { headers: { authorization: `Bearer ${token}` } });
      const mine = ((await res.json()) as { messageText: string; total: number }[]).filter((b) => b.messageText === text);
      expect(mine.map((b) => b.total)).toEqual([2, 2]);
    }, { timeoutMs: 15_000 });
  }, 90_000);
}
