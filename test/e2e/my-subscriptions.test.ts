import { afterAll, beforeAll, expect, test } from "bun:test";
import { DESKTOP, PHONE, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { openShop, type Shop } from "../helpers/e2e-shop.ts";
import { type FakeTwilio, startFakeTwilio } from "../helpers/fake-twilio.ts";
import { createCornerBakery, fakeTwilioEnv } from "../helpers/server.ts";

// Issue 24 item 6 in the built executable with JavaScript off: the fake Twilio texts HELP (signed, as Twilio posts
// it), the reply carries the link on the public URL; the page lists both businesses with their channel; one tap
// leaves one business, "Unsubscribe from all" the rest; an altered link gets the page that says to text HELP.
let fake: FakeTwilio;
let shop: Shop;
let cafeId: number;
const PERSON = "+14155550188";
const PUBLIC_URL = "https://deals.example.com";

beforeAll(async () => {
  fake = startFakeTwilio();
  shop = await openShop("nearcast-e2e-my-subscriptions-", fakeTwilioEnv(fake, 10));
  const types = (await shop.call("GET", "/api/businesstype/GetAllBusinessTypes", undefined, shop.token)).body as { id: number }[];
  cafeId = await createCornerBakery(shop.server.url, shop.token, types[0]!.id);
  const current = (await shop.call("GET", `/api/business/GetBusinessById?id=${cafeId}`, undefined, shop.token)).body as Record<string, unknown>;
  expect((await shop.call("PUT", `/api/business/UpdateBusiness?id=${cafeId}`, { ...current, name: "Rosa's Café on Mission" }, shop.token)).status).toBe(200);
  for (const [businessId, contactPreference] of [[shop.businessId, "SMS"], [cafeId, "SMS"]] as const) {
    expect((await shop.call("POST", "/api/customer/CreateCustomer", { businessId, phone: PERSON, contactPreference }, shop.token)).status).toBe(201);
  }
});

afterAll(async () => {
  await shop?.close();
  await fake?.stop();
});

/** The person texts HELP; Advanced Opt-Out off, so the server answers: the path of the link in its reply. */
async function helpLink(): Promise<string> {
  const answer = await fake.sendInbound(`${shop.server.url}/api/webhooks/twilio/inbound`, PUBLIC_URL, { from: PERSON, body: "HELP", advancedOptOut: false });
  expect(answer.status).toBe(200);
  const link = /https:\/\/deals\.example\.com(\/my-subscriptions\?t=[\w-]{22})/.exec(answer.twiml);
  expect(link).not.toBeNull();
  return link![1]!;
}

test("phone: the link lists both businesses; one tap leaves one, and the page shows it", async () => {
  const path = await helpLink();
  await inBrowser(PHONE, async ({ page }) => {
    const res = await page.goto(`${shop.server.url}${path}`);
    expect(res?.status()).toBe(200);
    await page.getByRole("heading", { name: "Your subscriptions" }).waitFor();
    const rows = page.getByTestId("mysubs-row");
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain("Rosa's Corner Bakery");
    expect(await rows.nth(1).textContent()).toContain("Rosa's Café on Mission");
    expect(await rows.nth(1).textContent()).toContain("Text (SMS)");
    await screenshot(page, "my-subscriptions-phone");
    await rows.nth(1).getByRole("button", { name: "Unsubscribe" }).click();
    await page.getByTestId("mysubs-notice").waitFor();
    expect(await page.getByTestId("mysubs-notice").textContent()).toBe("You are unsubscribed from Rosa's Café on Mission.");
    expect(await rows.nth(1).textContent()).toContain("Unsubscribed");
    expect(await rows.nth(0).getByRole("button", { name: "Unsubscribe" }).count()).toBe(1);
    await screenshot(page, "my-subscriptions-left-one-phone");
  }, { javaScript: false });
});

test("desktop: Unsubscribe from all; an altered link is refused with how to get a new one", async () => {
  const path = await helpLink();
  await inBrowser(DESKTOP, async ({ page }) => {
    await page.goto(`${shop.server.url}${path}`);
    await screenshot(page, "my-subscriptions-desktop");
    await page.getByRole("button", { name: "Unsubscribe from all" }).click();
    await page.getByText("You are unsubscribed from every business.").waitFor();
    expect(await page.getByRole("button", { name: /Unsubscribe/ }).count()).toBe(0);
    await screenshot(page, "my-subscriptions-all-desktop");
    const altered = path.slice(0, -1) + (path.endsWith("A") ? "B" : "A");
    const res = await page.goto(`${shop.server.url}${altered}`);
    expect(res?.status()).toBe(404);
    await page.getByRole("heading", { name: "This link is not valid" }).waitFor();
    await page.getByText("Text HELP to the number our messages come from").waitFor();
    await screenshot(page, "my-subscriptions-altered-desktop");
  }, { javaScript: false });
});
