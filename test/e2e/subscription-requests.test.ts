import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DESKTOP, PHONE, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { logInOnPage, openShop, type Shop } from "../helpers/e2e-shop.ts";
import type { RunningBinary } from "../helpers/server.ts";

// Issue 10: a person the owner removed who subscribes again on the public page does not come back by themselves.
// The owner sees "Asked to subscribe again" above the Customers table and accepts or declines, in a real browser
// against the built executable. Set-up (owner, business, subscribers, removal, the public subscribe) goes through the
// CLI and the HTTP API; the answers go through the UI.
let shop: Shop;
let server: RunningBinary;
const OWNER = { firstName: "Rosa", lastName: "Baker", email: "rosa@corner-bakery.test", password: "flour-and-water" };
// Two requests per run: desktop accepts the first and declines the second; the phone then does the same to the rest.
// Toronto numbers: they subscribe again by WhatsApp, which a US number cannot (issue 23 item 7).
const REMOVED = ["+14165550150", "+14165550151", "+14165550152", "+14165550153"];
const STAYING = "+14155550140";
let businessId = 0;
let token = "";
let call: Shop["call"];

beforeAll(async () => {
  shop = await openShop("nearcast-e2e-requests-", { NEARCAST_ALLOWED_COUNTRIES: "US,CA" }, OWNER);
  ({ server, businessId, token, call } = shop);
  for (const phone of [STAYING, ...REMOVED]) {
    expect((await call("POST", "/api/subscription/Subscribe", { businessId, phone, contactPreference: "SMS" })).status).toBe(200);
  }
  const customers = (await call("GET", "/api/customer/GetAllCustomers", undefined, token)).body as { id: number; phone: string }[];
  for (const phone of REMOVED) {
    const id = customers.find((c) => c.phone === phone)!.id;
    expect((await call("DELETE", `/api/customer/DeleteCustomer?id=${id}`, undefined, token)).status).toBe(200);
    // The person subscribes again (by WhatsApp now): the same success answer, but only a request for the owner.
    const again = await call("POST", "/api/subscription/Subscribe", { businessId, phone, contactPreference: "WhatsApp" });
    expect(again.status).toBe(200);
  }
});

afterAll(async () => {
  await shop?.close();
});

const login = (page: Page) => logInOnPage(page, server.url, OWNER);

const listed = async () => ((await call("GET", "/api/customer/GetAllCustomers", undefined, token)).body as { phone: string }[]).map((c) => c.phone).sort();

for (const [device, viewport, accept, decline] of [
  ["desktop", DESKTOP, REMOVED[0]!, REMOVED[1]!],
  ["phone", PHONE, REMOVED[2]!, REMOVED[3]!],
] as const) {
  test(`the owner answers "Asked to subscribe again" on the Customers screen: Accept brings the person back, Decline does not (${device})`, async () => {
    await inBrowser(viewport, async ({ page }) => {
      await login(page);
      await page.goto(`${server.url}/customers`);
      const panel = page.getByRole("region", { name: "Asked to subscribe again" });
      await panel.getByText(accept).waitFor();
      await page.getByRole("row").filter({ hasText: STAYING }).waitFor();
      // Only those still on the list are in the table; the people who asked are in the panel.
      expect(await page.getByRole("row").filter({ hasText: accept }).count()).toBe(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `e2e-subscription-requests-${device}`);

      await panel.getByRole("button", { name: `Accept ${accept} for Rosa's Corner Bakery` }).click();
      await page.getByRole("row").filter({ hasText: accept }).waitFor();
      await page.getByRole("row").filter({ hasText: accept }).getByText("WhatsApp").waitFor();
      await panel.getByRole("button", { name: `Decline ${decline} for Rosa's Corner Bakery` }).click();
      await panel.getByText(decline).waitFor({ state: "detached" });
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `e2e-subscription-requests-answered-${device}`);

      expect(await listed()).toContain(accept);
      expect(await listed()).not.toContain(decline);
      const pending = (await call("GET", "/api/customer/GetSubscriptionRequests", undefined, token)).body as { phone: string }[];
      expect(pending.map((r) => r.phone)).not.toContain(accept);
      expect(pending.map((r) => r.phone)).not.toContain(decline);
    }, { timeoutMs: 15_000 });
  }, 90_000);
}
