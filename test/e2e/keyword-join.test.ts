// Join by texting a word (issue 24, item 5) in a real browser on the built executable: the owner gives the business
// a keyword on its form (a reserved word refused under the field), and the subscribe page (phone) and the print
// poster (desktop) then say "or text BAGEL to +1 555 000 1111", the SMS sender of the settings.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { keywordReserved } from "../../src/schemas/join-keyword.ts";
import { DESKTOP, PHONE, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { logInOnPage, openShop, type Shop } from "../helpers/e2e-shop.ts";

const LINE = "or text BAGEL to +1 555 000 1111";
// Twilio configured (so there is an SMS sender to text) but never called: nothing here sends.
const TWILIO = { TWILIO_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef", TWILIO_AUTH_TOKEN: "secret-token-123456", TWILIO_FROM: "+15550001111", TWILIO_API_BASE: "http://127.0.0.1:9" };
let shop: Shop;

beforeAll(async () => {
  shop = await openShop("nearcast-e2e-keyword-", TWILIO);
});

afterAll(async () => {
  await shop?.close();
});

test("the owner sets the keyword on the business form: a reserved word is refused under the field, BAGEL is saved", async () => {
  for (const [viewport, name] of [[DESKTOP, "desktop"], [PHONE, "phone"]] as const) {
    await inBrowser(viewport, async ({ page }) => {
      await logInOnPage(page, shop.server.url);
      await page.goto(`${shop.server.url}/businesses/edit/${shop.businessId}`);
      // The stored business fills the form once loaded (typing before that would be overwritten).
      await page.waitForFunction(() => (document.querySelector("input[name=name]") as HTMLInputElement | null)?.value === "Rosa's Corner Bakery");
      const field = page.getByLabel("Join Keyword");
      await field.fill("stop");
      await field.blur();
      await page.locator(".field-error").filter({ hasText: keywordReserved("STOP") }).waitFor();
      await field.fill(name === "desktop" ? "bagel" : "Bagel");
      await field.scrollIntoViewIfNeeded();
      await screenshot(page, `business-keyword-field-${name}`);
      await page.getByRole("button", { name: "Update Business" }).click();
      await page.waitForURL(`${shop.server.url}/businesses`);
    });
  }
  const saved = await shop.call("GET", `/api/business/GetBusinessById?id=${shop.businessId}`, undefined, shop.token);
  expect(saved.body.keyword).toBe("BAGEL");
});

test("the subscribe page on a phone and the print poster on a desktop offer the keyword", async () => {
  await inBrowser(PHONE, async ({ page }) => {
    await page.goto(`${shop.server.url}/subscribe?id=${shop.businessId}`);
    const join = page.getByTestId("join-keyword");
    expect(await join.textContent()).toBe(LINE);
    await join.scrollIntoViewIfNeeded();
    await screenshot(page, "subscribe-keyword-phone");
  });
  await inBrowser(DESKTOP, async ({ page }) => {
    await page.addInitScript(() => {
      window.print = () => {};
    });
    await page.goto(`${shop.server.url}/print/${shop.businessId}`);
    const join = page.locator(".poster-sheet .ps-join");
    await join.waitFor();
    expect(await join.textContent()).toBe(LINE);
    await screenshot(page, "print-poster-keyword-desktop");
  });
});
