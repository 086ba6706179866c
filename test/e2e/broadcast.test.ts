import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { DESKTOP, launchBrowser, PHONE, screenshot } from "../helpers/browser.ts";
import { png } from "../helpers/images.ts";
import { BINARY, createCornerBakery, httpClient, type RunningBinary, startBinary } from "../helpers/server.ts";

// The heart of the product in a real browser against the built executable, with the sandbox messenger (no Twilio):
// an owner with three subscribers sends a broadcast with a photo, watches its progress, and opens a customer's
// messages to see the promotion Delivered. Set-up goes through the executable's CLI and HTTP API (the UI set-up
// journey is covered by businesses-subscribe.test.ts); the broadcast itself is driven through the UI.
let server: RunningBinary;
let dataDir: string;
let files: string;
const OWNER = { firstName: "Rosa", lastName: "Baker", email: "rosa@corner-bakery.test", password: "flour-and-water" };
const SUBSCRIBERS = [
  { phone: "+14155550134", contactPreference: "SMS" },
  { phone: "+14155550135", contactPreference: "WhatsApp" },
  // The sandbox fails numbers ending in 0000, so the history shows a failure and offers a retry.
  { phone: "+14155550000", contactPreference: "SMS" },
];
const MESSAGE = "Fresh sourdough just out of the oven! Show this text for 20% off until noon.";
let businessId = 0;

function cli(...args: string[]): string {
  const proc = Bun.spawnSync([BINARY, ...args, "--data-dir", dataDir], { env: { PATH: process.env.PATH ?? "" } });
  if (proc.exitCode !== 0) throw new Error(`nearcast ${args.join(" ")} failed: ${proc.stderr.toString()}`);
  return proc.stdout.toString();
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "nearcast-e2e4-"));
  files = mkdtempSync(join(tmpdir(), "nearcast-e2e4-files-"));
  const type = JSON.parse(cli("business-types", "add", "--name", "Bakery", "--json")) as { id: number };
  // A server without an admin opens on the first-run setup screen; this one has its admin from the CLI.
  cli("users", "create", "--email", "admin@corner-bakery.test", "--password", "flour-and-water", "--admin");
  server = await startBinary({ NEARCAST_SEND_RATE: "20" }, dataDir);
  const call = httpClient(server.url);
  expect((await call("POST", "/api/auth/Register", OWNER)).status).toBe(201);
  const { token } = (await call("POST", "/api/auth/Login", { email: OWNER.email, password: OWNER.password })).body as { token: string };

  businessId = await createCornerBakery(server.url, token, type.id);
  for (const s of SUBSCRIBERS) {
    expect((await call("POST", "/api/subscription/Subscribe", { businessId, ...s })).status).toBe(200);
  }
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
});

async function login(page: Page) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await page.waitForURL(`${server.url}/`);
}

for (const [device, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`owner sends a broadcast with a photo and sees it Delivered in the customer's messages (${device})`, async () => {
    const browser = await launchBrowser(viewport);
    browser.context.setDefaultTimeout(15_000);
    const { page } = browser;
    try {
      const photo = join(files, `special-${device}.png`);
      writeFileSync(photo, png(120, 80, (x) => (x < 60 ? [245, 158, 11] : [15, 118, 110])));
      await login(page);
      await page.goto(`${server.url}/my-business`);
      await page.getByRole("link", { name: "Broadcast to subscribers of Rosa's Corner Bakery" }).click();
      await page.waitForURL(`${server.url}/businesses/broadcast/${businessId}`);
      await page.getByRole("heading", { name: "Rosa's Corner Bakery" }).waitFor();
      // Before sending, the owner is told who will receive it.
      await page.getByText(/Will send to 3 subscribers/).waitFor();
      const text = `${MESSAGE} (${device})`;
      await page.getByLabel("Message Text").fill(text);
      await page.getByLabel("Image (optional)").setInputFiles(photo);
      await page.getByText(`special-${device}.png`).first().waitFor();
      await screenshot(page, `e2e4-broadcast-form-${device}`);
      await page.getByRole("button", { name: "Send Broadcast" }).click();
      await page.getByText("Message Sent!").waitFor();
      await page.waitForURL(`${server.url}/my-business`);

      // The history shows the broadcast finishing: two delivered, the 0000 number failed (sandbox), retry offered.
      await page.goto(`${server.url}/businesses/broadcast/${businessId}`);
      const row = page.locator("li.bc-history-item").filter({ hasText: text });
      await row.locator(".bc-count-delivered dd").filter({ hasText: "2" }).waitFor();
      await row.getByRole("button", { name: /Retry failed/ }).waitFor();
      await screenshot(page, `e2e4-broadcast-history-${device}`);

      // The SMS subscriber's messages: this promotion, Delivered, with its image.
      await page.goto(`${server.url}/customers`);
      const customerRow = page.getByRole("row").filter({ hasText: "+14155550134" });
      await customerRow.getByRole("button", { name: "Messages" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText("Customer Messages").waitFor();
      const item = dialog.locator("li.msg-item").filter({ hasText: text }).first();
      await item.getByText("Delivered", { exact: true }).waitFor();
      const img = item.locator("img");
      await page.waitForFunction((el) => (el as HTMLImageElement | null)?.naturalWidth === 120, await img.elementHandle());
      await screenshot(page, `e2e4-customer-messages-${device}`);
      await dialog.getByRole("button", { name: "Close", exact: true }).click();
      await dialog.waitFor({ state: "detached" });

      // What was stored and reported by the API agrees with the screen.
      const token = await page.evaluate(() => localStorage.getItem("token"));
      const res = await fetch(`${server.url}/api/business/GetBroadcasts?businessId=${businessId}`, { headers: { authorization: `Bearer ${token}` } });
      const broadcasts = (await res.json()) as { messageText: string; total: number; delivered: number; failed: number; imagePath: string | null }[];
      const mine = broadcasts.find((b) => b.messageText === text)!;
      expect(mine).toMatchObject({ total: 3, delivered: 2, failed: 1 });
      expect(mine.imagePath).toMatch(/^\/uploads\//);
    } finally {
      await browser.close();
    }
  }, 90_000);
}
