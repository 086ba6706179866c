import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { UNREACHABLE_LINK_WARNING } from "../../src/schemas/public-url.ts";
import { DESKTOP, launchBrowser, PHONE, screenshot } from "../helpers/browser.ts";
import { decodeQrPng } from "../helpers/qr-decode.ts";
import { useAdminAndOwner } from "../helpers/e2e-admin-and-owner.ts";
import { httpClient } from "../helpers/server.ts";

// Links that work, in a real browser against the built executable, on a fresh install opened at 127.0.0.1 (an
// address phones elsewhere cannot open, and no public URL saved): the admin's home shows the setup checklist and
// offers to save the address; the owner's QR modal and print page show the link the QR code really encodes (decoded
// with jsQR), with the warning on screen and not on paper.
const shop = useAdminAndOwner();

/** A fresh browser signed in as `who` (the token where the UI keeps it); printing does nothing. */
async function open(viewport: typeof DESKTOP, who: "admin" | "owner") {
  const browser = await launchBrowser(viewport);
  browser.context.setDefaultTimeout(10_000);
  await browser.context.addInitScript((token) => {
    localStorage.setItem("token", token);
    window.print = () => {};
  }, shop.tokens[who]);
  return browser;
}

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

for (const [device, viewport] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
  test(`admin home (${device}): the setup checklist and the offer to save this address`, async () => {
    const { page, close } = await open(viewport, "admin");
    try {
      await page.goto(`${shop.server.url}/`);
      const checklist = page.locator("section.setup-checklist");
      await checklist.getByText("of 8 done").waitFor();
      const items = checklist.locator("li.setup-item");
      expect(await items.count()).toBe(8);
      // The shop's programme (issue 23): its legal pages cannot be checked without a public URL.
      await checklist.getByText("/terms and /privacy cannot be checked: no public URL is saved", { exact: false }).waitFor();
      await checklist.getByText("None yet: the server writes the first a minute after it starts", { exact: false }).waitFor();
      expect(await items.first().getAttribute("class")).toContain("is-red"); // no public URL
      await checklist.getByText("Sandbox: messages are recorded, not sent.", { exact: false }).waitFor();
      await checklist.getByText("8 active business types.").waitFor();
      const offer = page.locator("section.public-url-offer");
      await offer.getByText(`Links and QR codes use ${shop.server.url}. Save it as this server's public address?`).waitFor();
      await offer.getByText(`${UNREACHABLE_LINK_WARNING}.`).waitFor();
      await shot(page, `links-admin-home-${device}`);
      await page.screenshot({ path: (await screenshot(page, `links-admin-home-${device}`)).replace(/\.png$/, "-viewport.png") });
      // "Not now" is remembered.
      await offer.getByRole("button", { name: "Not now" }).click();
      await offer.waitFor({ state: "detached" });
      await page.reload();
      await checklist.getByText("of 8 done").waitFor();
      expect(await page.locator("section.public-url-offer").count()).toBe(0);
    } finally {
      await close();
    }
  }, 60_000);

  test(`owner's QR modal and print page (${device}): the link the code encodes, and the warning`, async () => {
    const { page, close } = await open(viewport, "owner");
    try {
      const link = `${shop.server.url}/subscribe?id=${shop.businessId}`;
      const qr = await fetch(`${shop.server.url}/api/business/GetQRCodeImage?id=${shop.businessId}`);
      expect(decodeQrPng(new Uint8Array(await qr.arrayBuffer()))).toBe(link);

      await page.goto(`${shop.server.url}/my-business`);
      await page.getByRole("button", { name: "QR Code of Rosa's Corner Bakery" }).click();
      const dialog = page.getByRole("dialog", { name: "Rosa's Corner Bakery" });
      await dialog.getByText(`${UNREACHABLE_LINK_WARNING}.`).waitFor();
      expect(await dialog.getByLabel("Subscription link").inputValue()).toBe(link);
      expect(await dialog.getByRole("link", { name: "Open Settings" }).count()).toBe(0); // an owner cannot change it
      const img = dialog.getByRole("img", { name: "QR code to subscribe to Rosa's Corner Bakery" });
      await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle());
      await page.screenshot({ path: (await screenshot(page, `links-qr-modal-${device}`)).replace(/\.png$/, "-viewport.png") });

      await page.goto(`${shop.server.url}/print/${shop.businessId}`);
      const warning = page.locator(".print-warning");
      await warning.getByText(`${UNREACHABLE_LINK_WARNING}.`).waitFor();
      await page.locator(".ps-link").getByText(link).waitFor();
      await shot(page, `links-print-${device}`);
      await page.emulateMedia({ media: "print" });
      expect(await warning.isVisible()).toBe(false);
      expect(await page.locator(".ps-link").isVisible()).toBe(true);
      await page.emulateMedia({ media: "screen" });
    } finally {
      await close();
    }
  }, 60_000);
}

// Last: it saves a public URL, which the tests above must not see.
test("the admin saves a public URL on Settings; the owner's QR modal and its QR code then use it, without a warning", async () => {
  const publicUrl = "https://deals.corner-bakery.test";
  const admin = await open(DESKTOP, "admin");
  try {
    await admin.page.goto(`${shop.server.url}/settings`);
    await admin.page.getByLabel("Public URL").fill(publicUrl);
    await admin.page.getByRole("button", { name: "Save Settings" }).click();
    await admin.page.getByText("Settings Saved", { exact: false }).first().waitFor();
  } finally {
    await admin.close();
  }
  const site = (await httpClient(shop.server.url)("GET", "/api/site")).body;
  expect(site).toMatchObject({ publicUrl, publicUrlSource: "saved", publicUrlPrivate: false });

  const { page, close } = await open(DESKTOP, "owner");
  try {
    const link = `${publicUrl}/subscribe?id=${shop.businessId}`;
    await page.goto(`${shop.server.url}/my-business`);
    await page.getByRole("button", { name: "QR Code of Rosa's Corner Bakery" }).click();
    const dialog = page.getByRole("dialog", { name: "Rosa's Corner Bakery" });
    expect(await dialog.getByLabel("Subscription link").inputValue()).toBe(link);
    expect(await dialog.getByText(UNREACHABLE_LINK_WARNING, { exact: false }).count()).toBe(0);
    // The image the page shows, fetched by the page itself, decodes to the same link.
    const img = dialog.getByRole("img", { name: "QR code to subscribe to Rosa's Corner Bakery" });
    const src = await img.getAttribute("src");
    const bytes = await page.evaluate(async (url) => Array.from(new Uint8Array(await (await fetch(url!)).arrayBuffer())), src);
    expect(decodeQrPng(new Uint8Array(bytes))).toBe(link);
    await page.screenshot({ path: (await screenshot(page, "links-qr-modal-saved-desktop")).replace(/\.png$/, "-viewport.png") });
  } finally {
    await close();
  }

  // Saved is not yet working (issue 23 item 10): the line stays amber, with why, until the address answered.
  const home = await open(PHONE, "admin");
  try {
    await home.page.goto(`${shop.server.url}/`);
    const line = home.page.locator("section.setup-checklist li.setup-item").first();
    await line.getByText(`We could not reach ${publicUrl} from this server`, { exact: false }).waitFor();
    expect(await line.getAttribute("class")).toContain("is-amber");
    await line.getByText("if Twilio can, ignore this.", { exact: false }).waitFor();
    await home.page.screenshot({ path: (await screenshot(home.page, "links-admin-home-saved-unreachable-phone")).replace(/\.png$/, "-viewport.png") });
  } finally {
    await home.close();
  }
}, 60_000);
