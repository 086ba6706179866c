import { afterAll, beforeAll, expect, test } from "bun:test";
import { consentText } from "../../src/schemas/consent.ts";
import { confirmationText } from "../../src/schemas/confirmation.ts";
import { REGISTER_BEFORE_SENDING } from "../../src/schemas/registration.ts";
import { DESKTOP, PHONE, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { logInOnPage, openShop, type Shop } from "../helpers/e2e-shop.ts";

// The carrier registration kit (issue 23, item 1), in the built executable: a reviewer on a phone opens the public
// program page without logging in; the owner finds the kit from My Business, copies its fields, and the broadcast
// screen warns while the US sender is not approved; the admin's checklist links to the kit.
const PUBLIC = "https://deals.example.com";
let shop: Shop;

beforeAll(async () => {
  // A US sender, not registered; Twilio's API unreachable (nothing here sends).
  shop = await openShop("nearcast-e2e-registration-", {
    NEARCAST_PUBLIC_URL: PUBLIC,
    TWILIO_ACCOUNT_SID: `AC${"a".repeat(32)}`,
    TWILIO_AUTH_TOKEN: "x".repeat(32),
    TWILIO_FROM: "+14155550199",
    TWILIO_API_BASE: "http://127.0.0.1:9",
  });
});

afterAll(async () => {
  await shop?.close();
});

test("a phone, no login: the program page states the programme in the words of the sign-up and the confirmation", async () => {
  await inBrowser(PHONE, async ({ page }) => {
    await page.goto(`${shop.server.url}/program?id=${shop.businessId}`);
    await page.getByTestId("program-name").waitFor();
    expect(await page.getByTestId("program-name").textContent()).toBe("Rosa's Corner Bakery");
    expect((await page.getByTestId("program-consent").textContent())!.trim()).toBe(consentText({ name: "Rosa's Corner Bakery", messagesPerWeek: 4 }));
    expect((await page.getByTestId("program-confirmation").textContent())!.trim()).toBe(confirmationText({ name: "Rosa's Corner Bakery", messagesPerWeek: 4, doubleOptIn: false }));
    expect(await page.getByTestId("program-subscribe-link").getAttribute("href")).toBe(`${PUBLIC}/subscribe?id=${shop.businessId}`);
    // The QR image loads (a public image), and the page fits the phone's width.
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>(".prog-poster img");
      return !!img && img.complete && img.naturalWidth > 0;
    });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "program-page-phone");
    // The poster it links to is the PDF, public.
    const poster = await page.request.get(`${shop.server.url}/program/poster.pdf?id=${shop.businessId}`);
    expect(poster.status()).toBe(200);
    expect(poster.headers()["content-type"]).toBe("application/pdf");
    // The subscribe page links back to it.
    await page.goto(`${shop.server.url}/subscribe?id=${shop.businessId}`);
    await page.getByRole("link", { name: "Program details" }).click();
    await page.waitForURL(`${shop.server.url}/program?id=${shop.businessId}`);
  });
});

test("the owner: My Business -> Carrier registration, each field with Copy; the broadcast screen warns", async () => {
  await inBrowser(DESKTOP, async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: shop.server.url });
    await logInOnPage(page, shop.server.url);
    await page.goto(`${shop.server.url}/my-business`);
    await page.getByRole("link", { name: "Carrier registration of Rosa's Corner Bakery" }).click();
    await page.waitForURL(`${shop.server.url}/registration?business=${shop.businessId}`);
    const programUrl = page.getByRole("textbox", { name: "Program page URL", exact: true });
    await programUrl.waitFor();
    expect(await programUrl.inputValue()).toBe(`${PUBLIC}/program?id=${shop.businessId}`);
    expect(await page.getByRole("textbox", { name: "Opt-in image URL (the poster)", exact: true }).inputValue()).toBe(`${PUBLIC}/program/poster.pdf?id=${shop.businessId}`);
    expect(await page.getByRole("textbox", { name: "Use case", exact: true }).inputValue()).toBe("MARKETING");
    expect(await page.getByRole("textbox", { name: "Sample message 1", exact: true }).inputValue()).toContain("Reply STOP to opt out.");
    expect(await page.getByRole("textbox", { name: "Reply to HELP", exact: true }).inputValue()).toContain("Rosa's Corner Bakery");
    await expect(page.getByText(`${REGISTER_BEFORE_SENDING}.`).first().isVisible()).resolves.toBe(true);

    await page.getByRole("button", { name: "Copy Program page URL" }).click();
    await page.getByRole("button", { name: "Copy Program page URL" }).filter({ hasText: "Copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${PUBLIC}/program?id=${shop.businessId}`);
    await screenshot(page, "registration-kit-desktop");

    await page.goto(`${shop.server.url}/businesses/broadcast/${shop.businessId}`);
    const note = page.locator(".registration-note");
    await note.waitFor();
    expect(await note.textContent()).toContain(REGISTER_BEFORE_SENDING);
    expect(await note.getByRole("link", { name: "Open the registration kit" }).getAttribute("href")).toBe(`/registration?business=${shop.businessId}`);
    await screenshot(page, "registration-note-broadcast-desktop");
  });
});

test("the admin's checklist: Carrier registration in amber, linking to the kit", async () => {
  await inBrowser(DESKTOP, async ({ page }) => {
    await logInOnPage(page, shop.server.url, { email: "admin@corner-bakery.test", password: "flour-and-water" });
    const line = page.locator(".setup-item", { hasText: "Carrier registration" });
    await line.waitFor();
    expect(await line.getAttribute("class")).toContain("is-amber");
    expect(await line.textContent()).toContain(REGISTER_BEFORE_SENDING);
    await line.getByRole("link", { name: "Registration kit" }).click();
    await page.waitForURL(`${shop.server.url}/registration`);
    await page.getByRole("link", { name: "Rosa's Corner Bakery" }).click();
    await page.getByRole("textbox", { name: "Program page URL", exact: true }).waitFor();
  });
});
