import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DESKTOP, PHONE, SCREENSHOT_DIR, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { logInOnPage, openShop, type Shop } from "../helpers/e2e-shop.ts";
import { type FakeTwilio, startFakeTwilio } from "../helpers/fake-twilio.ts";
import type { RunningBinary } from "../helpers/server.ts";

// Issue 11, item 6 in a real browser against the built executable, with Twilio pointed at the fake: the owner enters
// their own mobile, sends themselves a test (the fake sees exactly that one message, and no broadcast is written),
// then sends the broadcast through the confirm step, which names the recipients, messages, segments and cost.
let shop: Shop;
let server: RunningBinary;
let fake: FakeTwilio;
const OWNER = { firstName: "Rosa", lastName: "Baker", email: "rosa@confirm-bakery.test", password: "flour-and-water" };
const OWNER_PHONE = "+14155550199";
const SUBSCRIBERS = ["+14155550161", "+14155550162"];
let businessId = 0;

beforeAll(async () => {
  fake = startFakeTwilio();
  shop = await openShop("nearcast-e2e-confirm-", { NEARCAST_SEND_RATE: "20", ...fake.settings() }, OWNER);
  ({ server, businessId } = shop);
  for (const phone of SUBSCRIBERS) {
    expect((await shop.call("POST", "/api/subscription/Subscribe", { businessId, phone, contactPreference: "SMS" })).status).toBe(200);
  }
});

afterAll(async () => {
  await shop?.close();
  await fake?.stop();
});

const broadcastsOf = async (token: string | null, text: string) => {
  const res = await fetch(`${server.url}/api/business/GetBroadcasts?businessId=${businessId}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { messageText: string; total: number }[]).filter((b) => b.messageText === text);
};

async function openScreen(page: Page) {
  await page.goto(`${server.url}/businesses/broadcast/${businessId}`);
  await page.getByText(/Will send to 2 subscribers/).waitFor();
}

for (const [device, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`test to my phone, then the confirm step (${device})`, async () => {
    await inBrowser(viewport, async ({ page }) => {
      const text = `Sourdough is back, 2 for $9 (${device})`;
      await logInOnPage(page, server.url, OWNER);
      const token = await page.evaluate(() => localStorage.getItem("token"));
      // Each device starts without a number of its own.
      expect((await shop.call("PUT", "/api/auth/UpdateMyPhone", { phone: "" }, token!)).status).toBe(200);
      await openScreen(page);
      await page.getByLabel("Message Text").fill(text);

      // The test button waits for a number; the owner enters theirs here.
      const testButton = page.getByRole("button", { name: "Send a test to my phone" });
      expect(await testButton.isDisabled()).toBe(true);
      await page.getByLabel("Your mobile number").fill("(415) 555-0199");
      await page.getByRole("button", { name: "Save number" }).click();
      await page.getByTestId("my-phone").getByText(OWNER_PHONE).waitFor();
      // A new number is verified first (issue 21): a 6-digit code texted to it, typed back.
      expect(await testButton.isDisabled()).toBe(true);
      fake.reset();
      await page.getByRole("button", { name: "Text me a code" }).click();
      await page.getByLabel("Verification code").waitFor();
      const code = /\b(\d{6})\b/.exec(String(fake.sends().at(-1)?.form.Body))?.[1] ?? "";
      expect(fake.sends().at(-1)?.form.To).toBe(OWNER_PHONE);
      await page.getByLabel("Verification code").fill(code);
      await page.getByRole("button", { name: "Verify", exact: true }).click();
      await page.getByTestId("phone-badge").getByText("Verified").waitFor();

      fake.reset();
      await testButton.click();
      await page.getByTestId("test-outcome").getByText(`Test sent by SMS to ${OWNER_PHONE}.`).waitFor();
      await page.locator(".bc-test").scrollIntoViewIfNeeded();
      await screenshot(page, `broadcast-test-send-${device}`);
      const sends = fake.sends();
      expect(sends).toHaveLength(1);
      expect(sends[0]!.form).toMatchObject({ To: OWNER_PHONE, Body: text });
      expect(await broadcastsOf(token, text)).toEqual([]);

      // The confirm step: 2 SMS subscribers, one GSM-7 segment each, at the default $0.0083.
      await page.getByRole("button", { name: "Send Broadcast" }).click();
      const dialog = page.getByRole("dialog", { name: "Send this broadcast?" });
      await dialog.getByText("Send to 2 customers: 2 messages (2 segments), about $0.02.").waitFor();
      // The viewport as the owner sees it (a full-page shot stretches the fixed backdrop).
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, `broadcast-confirm-dialog-${device}.png`) });
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      expect(await broadcastsOf(token, text)).toEqual([]);

      await page.getByRole("button", { name: "Send Broadcast" }).click();
      await dialog.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByText("Message Sent!").waitFor();
      await page.waitForURL(`${server.url}/my-business`);
      expect((await broadcastsOf(token, text)).map((b) => b.total)).toEqual([2]);
    }, { timeoutMs: 15_000 });
  }, 90_000);
}
