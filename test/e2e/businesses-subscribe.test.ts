import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { DESKTOP, launchBrowser, PHONE, SCREENSHOT_DIR, screenshot } from "../helpers/browser.ts";
import { png } from "../helpers/images.ts";
import { type RunningBinary, startBinary } from "../helpers/server.ts";
import { theAppAfterLogin } from "../helpers/e2e-shop.ts";

// The journey the product exists for, in a real browser against the built executable, through the UI only:
// the admin adds the 'Bakery' type; an owner adds a business with a logo and a sample product photo and opens its
// QR code; a visitor on a phone opens the subscription link and subscribes by WhatsApp; the owner sees them under
// Customers. The API is used only to check what was stored.
let server: RunningBinary;
let files: string;
const ADMIN = "admin@corner-bakery.test";
const OWNER = "rosa@corner-bakery.test";
const PASSWORD = "flour-and-water";

const BUSINESS = {
  name: "Rosa's Corner Bakery",
  address: "1200 Valencia St, San Francisco, CA 94110",
  phone: "(415) 555-0100",
  sampleProductText: "Sourdough loaf, baked at 6am: $6",
  qrMessage: "Scan for fresh-bread alerts and weekend pastry deals!",
  successMessage: "Welcome to the Corner Bakery club! Your first croissant is on us.",
};
// A Toronto visitor: WhatsApp promotions reach Canada, not the US (issue 23 item 7).
const VISITOR_PHONE = "(416) 555-0134";
const VISITOR_E164 = "+14165550134";

// A round logo: a warm dot on cream.
const LOGO = png(96, 96, (x, y) => ((x - 48) ** 2 + (y - 48) ** 2 < 38 ** 2 ? [194, 98, 38] : [255, 244, 226]));

beforeAll(async () => {
  files = mkdtempSync(join(tmpdir(), "nearcast-e2e3-"));
  server = await startBinary({ NEARCAST_ADMIN_EMAIL: ADMIN, NEARCAST_ALLOWED_COUNTRIES: "US,CA" });
});

afterAll(async () => {
  await server?.stop();
  rmSync(files, { recursive: true, force: true });
});

/** Read the toast, then close it, as a person would (it would otherwise linger over the page for 4 s). */
async function closeToast(page: Page, title: string) {
  const toast = page.getByRole("status").filter({ hasText: title });
  await toast.getByRole("button", { name: "Close notification" }).click();
  await toast.waitFor({ state: "detached" });
}

async function registerAndLogin(page: Page, email: string, first: string) {
  await page.goto(`${server.url}/register`);
  await page.getByLabel("First name").fill(first);
  await page.getByLabel("Last name").fill("Baker");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL(`${server.url}/login`);
  await closeToast(page, "Registration Successful");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await page.waitForURL(`${server.url}/`);
  await theAppAfterLogin(page);
  await closeToast(page, "Login Successful");
}

/** A fresh browser whose waits give up after 10 s, so a failure names the step well inside the test's 60 s. */
async function open(viewport: typeof DESKTOP) {
  const browser = await launchBrowser(viewport);
  browser.context.setDefaultTimeout(10_000);
  return browser;
}

/** A full-page screenshot from the top, so the sticky navigation bar sits where a person sees it. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** Resolves once the <img> has really decoded (not just been put in the page); returns its natural width. */
async function loadedWidth(img: Locator): Promise<number> {
  await img.waitFor();
  const handle = await img.elementHandle();
  await img.page().waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, handle, {
    timeout: 10_000,
  });
  return img.evaluate((el) => (el as HTMLImageElement).naturalWidth);
}

/** A real JPEG, encoded by chromium's canvas: a loaf on a board, so the screenshots show a recognisable photo. */
async function sampleJpeg(page: Page): Promise<Uint8Array> {
  const dataUrl = await page.evaluate(() => {
    const c = document.createElement("canvas");
    c.width = 480;
    c.height = 320;
    const g = c.getContext("2d")!;
    const sky = g.createLinearGradient(0, 0, 0, 320);
    sky.addColorStop(0, "#fde7c8");
    sky.addColorStop(1, "#e9b872");
    g.fillStyle = sky;
    g.fillRect(0, 0, 480, 320);
    g.fillStyle = "#8b5a2b";
    g.fillRect(40, 230, 400, 40);
    g.fillStyle = "#b8732f";
    g.beginPath();
    g.ellipse(240, 190, 150, 75, 0, Math.PI, 0);
    g.fill();
    g.strokeStyle = "#f3d29b";
    g.lineWidth = 6;
    for (const x of [180, 240, 300]) {
      g.beginPath();
      g.moveTo(x - 20, 150);
      g.lineTo(x + 20, 130);
      g.stroke();
    }
    g.fillStyle = "#5a3210";
    g.font = "bold 34px sans-serif";
    g.fillText("SOURDOUGH", 140, 60);
    return c.toDataURL("image/jpeg", 0.85);
  });
  return new Uint8Array(Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64"));
}

test("admin adds Bakery; owner adds a business with logo and sample image and opens its QR; a phone visitor subscribes by WhatsApp; the owner sees them", async () => {
  // 1. The admin (the configured admin email) registers, logs in and adds the business type.
  const admin = await open(DESKTOP);
  try {
    const { page } = admin;
    await registerAndLogin(page, ADMIN, "Ada");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Business Types" }).click();
    await page.waitForURL(`${server.url}/business-types`);
    await page.getByRole("link", { name: /Add Business Type/ }).click();
    await page.waitForURL(`${server.url}/business-types/add`);
    await page.getByLabel("Name").fill("Bakery");
    await page.getByLabel("Description").fill("Bread, cakes and pastries baked every morning");
    await page.getByRole("button", { name: "Create Business Type" }).click();
    await page.waitForURL(`${server.url}/business-types`);
    await page.getByText("Bread, cakes and pastries baked every morning").waitFor();
  } finally {
    await admin.close();
  }

  // 2. The owner registers, logs in and adds their business from My Business, with a logo and a sample photo.
  const owner = await open(DESKTOP);
  try {
    const { page } = owner;
    const sample = await sampleJpeg(page);
    const logoFile = join(files, "corner-bakery-logo.png");
    const sampleFile = join(files, "sourdough.jpg");
    writeFileSync(logoFile, LOGO);
    writeFileSync(sampleFile, sample);

    await registerAndLogin(page, OWNER, "Rosa");
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "My Business" }).click();
    await page.waitForURL(`${server.url}/my-business`);
    await page.getByText("You have not added a business yet.").waitFor();
    await page.getByRole("link", { name: "Add Business" }).first().click();
    await page.waitForURL(`${server.url}/businesses/add`);

    const form = page.getByRole("form", { name: "Add Business" });
    await form.getByLabel("Business Name").fill(BUSINESS.name);
    // Waits for the types to load: the dropdown offers the admin's new type.
    await form.getByLabel("Business Type").selectOption({ label: "Bakery" });
    await form.getByLabel("Address").fill(BUSINESS.address);
    await form.getByLabel("Phone").fill(BUSINESS.phone);
    await form.getByLabel("Sample Product", { exact: true }).fill(BUSINESS.sampleProductText);
    await form.getByLabel("Logo (optional)").setInputFiles(logoFile);
    await form.getByLabel("Sample Product Image (required)").setInputFiles(sampleFile);
    await form.getByLabel("QR Message").fill(BUSINESS.qrMessage);
    await form.getByLabel("Success Message").fill(BUSINESS.successMessage);
    await form.getByRole("checkbox", { name: /Active/ }).check();
    // Both previews show the chosen files before anything is uploaded.
    expect(await loadedWidth(form.getByRole("img", { name: "Logo preview" }))).toBe(96);
    expect(await loadedWidth(form.getByRole("img", { name: "Sample Product Image preview" }))).toBe(480);
    await form.getByText("Selected: corner-bakery-logo.png").waitFor();
    await form.getByText("Selected: sourdough.jpg").waitFor();
    await shot(page, "e2e3-business-form-desktop");

    await form.getByRole("button", { name: "Create Business" }).click();
    // Issue 23: a toast, then My Business (the owner's next step), not the public list.
    await page.getByText("Business Created").waitFor();
    await page.waitForURL(`${server.url}/my-business`);
    const card = page.getByRole("list", { name: "Your businesses" }).getByRole("listitem").filter({ hasText: BUSINESS.name });
    await card.getByRole("heading", { name: BUSINESS.name }).waitFor();
    await card.getByText("Bakery", { exact: true }).waitFor();
    await card.getByText("Active", { exact: true }).waitFor();
    await card.getByText(BUSINESS.address).waitFor();
    // The logo is decorative on the card (alt="", the name is beside it), so it is found as the card's image.
    expect(await loadedWidth(card.locator("img"))).toBe(96);
    await shot(page, "e2e3-my-business-desktop");

    // What was stored: both images were uploaded and their paths saved with the business.
    const token = await page.evaluate(() => localStorage.getItem("token"));
    expect(token).toBeTruthy();
    const mine = await fetch(`${server.url}/api/business/GetMyBusinesses`, { headers: { authorization: `Bearer ${token}` } });
    expect(mine.status).toBe(200);
    const list = (await mine.json()) as Record<string, any>[];
    expect(list).toHaveLength(1);
    const stored = list[0]!;
    expect(stored).toMatchObject({ ...BUSINESS, isActive: true, businessType: { name: "Bakery" } });
    expect(stored.logoImagePath).toBeTruthy();
    expect(stored.sampleImagePath).toBeTruthy();
    for (const [path, bytes, type] of [
      [stored.logoImagePath, LOGO, "image/png"],
      [stored.sampleImagePath, sample, "image/jpeg"],
    ] as const) {
      const res = await fetch(new URL(path, server.url));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect<Uint8Array>(new Uint8Array(await res.arrayBuffer())).toEqual(bytes); // stored as sent
    }
    const id = stored.id as number;

    // The QR modal: the QR image really loads, with the subscription link and the print button.
    await card.getByRole("button", { name: `QR Code of ${BUSINESS.name}` }).click();
    const dialog = page.getByRole("dialog", { name: BUSINESS.name });
    await dialog.waitFor();
    expect(await loadedWidth(dialog.getByRole("img", { name: `QR code to subscribe to ${BUSINESS.name}` }))).toBeGreaterThan(0);
    expect(await loadedWidth(dialog.getByRole("img", { name: `${BUSINESS.name} logo` }))).toBe(96);
    await dialog.getByText(BUSINESS.qrMessage).waitFor();
    expect(await dialog.getByLabel("Subscription link").inputValue()).toBe(`${server.url}/subscribe?id=${id}`);
    await dialog.getByRole("button", { name: "Print QR Code" }).waitFor();
    await shot(page, "e2e3-qr-modal-desktop");
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "detached" });

    // 3. A visitor on a phone (a browser of their own, not logged in) opens the link and subscribes by WhatsApp.
    const visitor = await open(PHONE);
    try {
      const phone = visitor.page;
      // From the public list, a phone cannot scan the QR on its own screen: the modal links to the subscribe page.
      await phone.goto(`${server.url}/businesses`);
      await phone.getByRole("button", { name: `Subscribe to ${BUSINESS.name}` }).click();
      const qr = phone.getByRole("dialog", { name: BUSINESS.name });
      expect(await loadedWidth(qr.getByRole("img", { name: `QR code to subscribe to ${BUSINESS.name}` }))).toBeGreaterThan(0);
      expect(await qr.getByLabel("Subscription link").count()).toBe(0);
      await phone.screenshot({ path: join(SCREENSHOT_DIR, "e2e3-qr-modal-phone.png") });
      await qr.getByRole("link", { name: "Open subscribe page" }).click();
      await phone.waitForURL(`${server.url}/subscribe?id=${id}&src=list`);
      await phone.getByRole("heading", { level: 1, name: BUSINESS.name }).waitFor();
      expect(await phone.title()).toBe("Subscribe · Nearcast");
      await phone.goto(`${server.url}/subscribe?id=${id}`);
      expect(await phone.evaluate(() => localStorage.getItem("token"))).toBeNull();
      await phone.getByRole("heading", { level: 1, name: BUSINESS.name }).waitFor();
      expect(await loadedWidth(phone.getByRole("img", { name: BUSINESS.sampleProductText }))).toBe(480);
      const subscribe = phone.getByRole("form", { name: `Subscribe to ${BUSINESS.name}` });
      await subscribe.getByLabel("Phone number").fill(VISITOR_PHONE);
      await subscribe.getByRole("radio", { name: /WhatsApp/ }).check();
      expect(await subscribe.getByRole("radio", { name: /WhatsApp/ }).isChecked()).toBe(true);
      await shot(phone, "e2e3-subscribe-phone");
      await subscribe.getByRole("button", { name: "Subscribe" }).click();
      await phone.getByRole("heading", { name: "You're subscribed!" }).waitFor();
      await phone.getByText(BUSINESS.successMessage).waitFor();
      expect(phone.url()).toBe(`${server.url}/subscribe?id=${id}`);
      // Where the visitor is left (no scrolling back to the top first): the whole card is in view, below the header.
      const headerBottom = await phone.locator(".navbar").evaluate((el) => el.getBoundingClientRect().bottom);
      const cardTop = await phone.locator(".sub-success").evaluate((el) => el.getBoundingClientRect().top);
      expect(cardTop).toBeGreaterThanOrEqual(headerBottom);
      await phone.screenshot({ path: join(SCREENSHOT_DIR, "e2e3-subscribed-phone-viewport.png") });
      await shot(phone, "e2e3-subscribed-phone");
    } finally {
      await visitor.close();
    }

    // 4. The owner opens Customers and finds the new subscriber, with the WhatsApp badge.
    await nav.getByRole("link", { name: "Customers" }).click();
    await page.waitForURL(`${server.url}/customers`);
    const customers = await fetch(`${server.url}/api/customer/GetAllCustomers`, { headers: { authorization: `Bearer ${token}` } });
    expect(customers.status).toBe(200);
    const people = (await customers.json()) as Record<string, any>[];
    expect(people).toHaveLength(1);
    expect(people[0]).toMatchObject({ phone: VISITOR_E164, contactPreference: "WhatsApp", businesses: [{ id, name: BUSINESS.name }] });
    const row = page.getByRole("row").filter({ hasText: VISITOR_E164 });
    await row.getByText(VISITOR_E164, { exact: true }).waitFor();
    await row.getByText("WhatsApp", { exact: true }).waitFor();
    await row.getByText(BUSINESS.name).waitFor();
    expect(await page.getByRole("row").count()).toBe(2); // the header and the one subscriber
    await shot(page, "e2e3-customers-desktop");

    // 5. A list that fails to load says so and offers Retry (never "No customers found.").
    await page.route("**/api/customer/ListCustomers?*", (route) => route.fulfill({ status: 500, contentType: "application/json", body: "{}" }));
    await page.reload();
    await page.getByText("Could not load customers.").waitFor();
    expect(await page.getByText("No customers found.").count()).toBe(0);
    await shot(page, "e2e3-customers-load-failed-desktop");
    await page.unroute("**/api/customer/ListCustomers?*");
    await page.getByRole("button", { name: "Retry" }).click();
    await row.getByText(VISITOR_E164, { exact: true }).waitFor();
  } finally {
    await owner.close();
  }
}, 60_000);
