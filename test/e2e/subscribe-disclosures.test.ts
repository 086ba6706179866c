import { afterAll, beforeAll, expect, test } from "bun:test";
import { consentText } from "../../src/schemas/consent.ts";
import { legalLinks, posterDisclosure } from "../../src/schemas/poster-text.ts";
import { DESKTOP, PHONE, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { openShop, type Shop } from "../helpers/e2e-shop.ts";

// Where consent is given (issue 11, item 7), in the built executable: a visitor on a phone sees the business, what
// and how often, rates, STOP and HELP, and links to the terms and privacy pages; nothing is pre-checked; subscribing
// stores exactly the words on screen, and queues the opt-in confirmation. The print poster carries the same words.
let shop: Shop;

beforeAll(async () => {
  shop = await openShop("nearcast-e2e-disclosures-");
  // Twice a week, and double opt-in: the page then asks for the YES.
  const current = (await shop.call("GET", `/api/business/GetBusinessById?id=${shop.businessId}`, undefined, shop.token)).body as Record<string, unknown>;
  const saved = await shop.call("PUT", `/api/business/UpdateBusiness?id=${shop.businessId}`, { ...current, messagesPerWeek: 2, doubleOptIn: true }, shop.token);
  expect(saved.status).toBe(200);
});

afterAll(async () => {
  await shop?.close();
});

test("a phone: the disclosures, the terms and privacy links, no pre-checked box; the stored consent is the text shown", async () => {
  await inBrowser(PHONE, async ({ page }) => {
    await page.goto(`${shop.server.url}/subscribe?id=${shop.businessId}`);
    const consent = page.getByTestId("consent");
    await consent.waitFor();
    // A US number: WhatsApp cannot carry promotions there (issue 23 item 7), so SMS is chosen and the words say SMS.
    await page.getByLabel("Phone number").fill("(415) 555-0199");
    const shown = (await consent.textContent())!;
    expect(shown).toBe(consentText({ name: "Rosa's Corner Bakery", messagesPerWeek: 2 }, "SMS"));
    expect(shown).toContain("recurring promotional messages by SMS, up to 2 per week");
    expect(shown).toContain("Msg & data rates may apply. Reply STOP to cancel, HELP for help.");
    expect(await page.locator("form input[type=checkbox]").count()).toBe(0);
    await consent.scrollIntoViewIfNeeded();
    await screenshot(page, "subscribe-disclosures-phone");

    // The links open the pages they name.
    expect(await consent.getByRole("link", { name: "Terms" }).getAttribute("href")).toBe("/terms");
    expect(await consent.getByRole("link", { name: "Privacy Policy" }).getAttribute("href")).toBe("/privacy");

    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByRole("heading", { name: "You're subscribed!" }).waitFor();
    expect(await page.getByText("To confirm, reply YES to the text we are sending you.", { exact: false }).count()).toBe(1);
    await screenshot(page, "subscribe-double-opt-in-phone");

    // What was stored is what was shown; the person waits for their YES, with a confirmation queued.
    const csv = shop.cli("customers", "consent", "--business", String(shop.businessId), "--csv");
    const line = csv.split("\n").find((l) => l.includes("+14155550199"));
    expect(line).toContain(`"${shown}"`);
    const list = JSON.parse(shop.cli("customers", "list", "--business", String(shop.businessId), "--json")) as { phone: string; status: string }[];
    expect(list.find((s) => s.phone === "+14155550199")?.status).toBe("unconfirmed");

    await page.goto(`${shop.server.url}/terms`);
    await page.getByRole("heading", { name: "Terms of Service" }).first().waitFor();
  });
});

test("the print poster: what, how often, rates, STOP/HELP and the terms and privacy addresses", async () => {
  await inBrowser(DESKTOP, async ({ page }) => {
    // The print page calls print() once the QR has loaded; a no-op keeps the headless browser going.
    await page.addInitScript(() => {
      window.print = () => {};
    });
    await page.goto(`${shop.server.url}/print/${shop.businessId}`);
    const sheet = page.locator(".poster-sheet");
    await sheet.waitFor();
    const text = (await sheet.textContent())!;
    expect(text).toContain(posterDisclosure(2));
    expect(text).toContain(legalLinks(shop.server.url));
    await screenshot(page, "print-poster-disclosures-desktop");
  });
});
