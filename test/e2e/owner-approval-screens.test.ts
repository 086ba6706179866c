import { afterAll, beforeAll, expect, test } from "bun:test";
import { PENDING_NOTICE_TITLE } from "../../src/schemas/owner-approval.ts";
import { DESKTOP, PHONE, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { logInOnPage, openShop, type Shop } from "../helpers/e2e-shop.ts";

// Issue 21, item 2 in a real browser against the built executable, sign-up under "approval": the pending owner's home
// and broadcast screens say why nothing is sent, and the admin's Users screen lists every account with its state
// (phone and desktop screenshots in test-results/screenshots).
let shop: Shop;
const ADMIN = { email: "admin@corner-bakery.test", password: "flour-and-water" };
const OWNER = { firstName: "Rosa", lastName: "Baker", email: "rosa@waiting-bakery.test", password: "flour-and-water" };

beforeAll(async () => {
  shop = await openShop("nearcast-e2e-approval-", { NEARCAST_OWNER_SIGNUP: "approval" }, OWNER);
});
afterAll(async () => {
  await shop?.close();
});

for (const [device, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`the pending owner's home and broadcast screens, the admin's Users screen (${device})`, async () => {
    await inBrowser(viewport, async ({ page }) => {
      await logInOnPage(page, shop.server.url, OWNER);
      const notice = page.getByTestId("pending-approval");
      await notice.getByText(PENDING_NOTICE_TITLE).waitFor();
      await screenshot(page, `pending-owner-home-${device}`);
      await page.goto(`${shop.server.url}/businesses/broadcast/${shop.businessId}`);
      await notice.getByText(PENDING_NOTICE_TITLE).waitFor();
      await page.getByTestId("test-hint").getByText("Tests are sent once the administrator approves your account.").waitFor();
      expect(await page.getByRole("button", { name: "Send a test to my phone" }).isDisabled()).toBe(true);
      await screenshot(page, `pending-owner-broadcast-${device}`);
      await page.goto(`${shop.server.url}/customers`);
      await notice.getByText(PENDING_NOTICE_TITLE).waitFor();
      await page.evaluate(() => localStorage.clear());

      await logInOnPage(page, shop.server.url, ADMIN);
      await page.getByRole("heading", { name: "Owners waiting for approval" }).waitFor();
      await page.goto(`${shop.server.url}/users`);
      await page.getByRole("heading", { name: "Users" }).waitFor();
      const rosa = page.getByRole("row", { name: /rosa@waiting-bakery\.test/ });
      await rosa.getByText("Waiting for approval").waitFor();
      expect(await rosa.getByRole("button", { name: "Approve Rosa Baker" }).isVisible()).toBe(true);
      await screenshot(page, `users-screen-${device}`);
    }, { timeoutMs: 15_000 });
  }, 90_000);
}
