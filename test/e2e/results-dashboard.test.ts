// Issue 25, items 3 and 4 in a real browser against the built executable: a broadcast sent through the fake Twilio to
// 20 people, with clicks, redemptions and a STOP seeded in the database; its results page and the business dashboard
// on a phone and a desktop: the numbers the server answers, the charts drawn on their canvas (pixels of the app's
// colours), uPlot fetched only by these screens, nothing wider than the phone. Screenshots under test-results/.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { BroadcastResults } from "../../src/schemas/broadcast-results.ts";
import type { BusinessDashboard } from "../../src/schemas/business-dashboard.ts";
import { DESKTOP, PHONE, SCREENSHOT_DIR, screenshot } from "../helpers/browser.ts";
import { inBrowser } from "../helpers/e2e-in-browser.ts";
import { logInOnPage, openShop, type Shop } from "../helpers/e2e-shop.ts";
import { type FakeTwilio, startFakeTwilio } from "../helpers/fake-twilio.ts";
import { until } from "../helpers/until.ts";
import { SEEDED, seedResults } from "./results-seed.ts";

const RECIPIENTS = 20;
let fake: FakeTwilio;
let shop: Shop;
let seeded: { broadcastId: number; clickerId: number };

beforeAll(async () => {
  fake = startFakeTwilio();
  shop = await openShop("nearcast-e2e-results-", { ...fake.settings(), NEARCAST_SEND_RATE: "50", NEARCAST_ALLOWED_COUNTRIES: "*" });
  const csv = join(shop.dataDir, "people.csv");
  writeFileSync(csv, ["phone,contactPreference", ...Array.from({ length: RECIPIENTS }, (_, i) => `+1415555${String(300 + i).padStart(4, "0")},SMS`)].join("\n"));
  shop.cli("customers", "import", "--business", String(shop.businessId), csv);
  // --no-wait: the fake Twilio answers from this process, which a CLI waiting in spawnSync would block.
  shop.cli("broadcast", "send", "--business", String(shop.businessId), "--message", "Rye is back: https://rosas-bakery.example/rye Show BREAD5 at the till", "--yes", "--no-wait");
  await until(() => fake.sends().length === RECIPIENTS, 20_000, "the broadcast sent");
  await until(async () => ((await shop.call("GET", `/api/business/ListBroadcasts?businessId=${shop.businessId}`, undefined, shop.token)).body.items?.[0]?.completedAt ?? null) !== null, 10_000, "the broadcast finished");
  seeded = seedResults(shop.dataDir, shop.businessId);
}, 60_000);

afterAll(async () => {
  await shop?.close();
  await fake?.stop();
});

/** Pixels of a chart's canvas that are drawn, and those in the colour given (r, g, b), read in the page. */
async function canvasPixels(page: Page, testId: string, rgb: [number, number, number]): Promise<{ drawn: number; colour: number; width: number }> {
  const canvas = page.getByTestId(testId).locator(".chart-canvas canvas");
  await canvas.waitFor();
  return canvas.evaluate((el, [r, g, b]) => {
    const c = el as HTMLCanvasElement;
    const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
    let drawn = 0;
    let colour = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! > 0) drawn++;
      if (Math.abs(data[i]! - r) < 6 && Math.abs(data[i + 1]! - g) < 6 && Math.abs(data[i + 2]! - b) < 6 && data[i + 3]! > 200) colour++;
    }
    return { drawn, colour, width: c.getBoundingClientRect().width };
  }, rgb);
}

/** The page is no wider than the window (nothing to scroll sideways on a phone). */
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

const cardValue = (page: Page, key: string) => page.getByTestId(key).locator(".results-card-value").textContent();

/** One part of the page at its real size (a full phone page is too tall to read scaled down). */
const shotOf = (page: Page, testId: string, name: string) => page.getByTestId(testId).screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });

const BRAND: [number, number, number] = [15, 118, 110];
const DANGER: [number, number, number] = [220, 38, 38];

for (const [device, viewport] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const) {
  test(`the results page: the server's numbers, the clicks chart drawn, who responded (${device})`, async () => {
    const answer = (await shop.call("GET", `/api/business/GetBroadcastResults?id=${seeded.broadcastId}`, undefined, shop.token)).body as BroadcastResults;
    expect(answer).toMatchObject({ recipients: RECIPIENTS, delivered: SEEDED.delivered, failed: SEEDED.failed, clicks: SEEDED.clicks, uniqueClickers: SEEDED.uniqueClickers, redemptions: SEEDED.redemptions, optOuts: SEEDED.optOuts });
    await inBrowser(viewport, async ({ page }) => {
      const scripts: string[] = [];
      page.on("request", (r) => void (r.resourceType() === "script" && scripts.push(new URL(r.url()).pathname)));
      await logInOnPage(page, shop.server.url);
      // From the broadcast history's Results link, as an owner gets there.
      await page.goto(`${shop.server.url}/businesses/broadcast/${shop.businessId}`);
      const results = page.locator(".bc-history-item").first().getByRole("link", { name: /^Results of the broadcast of / });
      await results.waitFor();
      // The broadcast screen (like every other) has not fetched uPlot.
      expect(scripts.some((s) => s.includes("/assets/app-"))).toBe(true);
      expect(scripts.filter((s) => s.includes("draw-time-chart"))).toHaveLength(0);
      await results.click();
      await page.waitForURL(`${shop.server.url}/broadcasts/results/${seeded.broadcastId}`);
      await page.getByTestId("card-clicks").waitFor();
      expect(await cardValue(page, "card-recipients")).toBe(String(RECIPIENTS));
      expect(await cardValue(page, "card-delivered")).toBe(String(SEEDED.delivered));
      expect(await cardValue(page, "card-failed")).toBe(String(SEEDED.failed));
      expect(await cardValue(page, "card-optOuts")).toBe(String(SEEDED.optOuts));
      expect(await cardValue(page, "card-clicks")).toBe(String(SEEDED.clicks));
      expect(await cardValue(page, "card-uniqueClickers")).toBe(String(SEEDED.uniqueClickers));
      expect(await page.getByTestId("card-uniqueClickers").locator(".results-card-note").textContent()).toBe("44.4% click rate");
      expect(await cardValue(page, "card-redemptions")).toBe(String(SEEDED.redemptions));
      expect(await cardValue(page, "card-cost")).toBe(answer.cost === null ? "No cost" : `$${answer.cost.toFixed(2)}`);
      // The chart is drawn (uPlot fetched now, by this screen only) at the card's width, bars in the brand colour.
      const pixels = await canvasPixels(page, "clicks-chart", BRAND);
      expect(scripts.filter((s) => s.includes("draw-time-chart"))).toHaveLength(1);
      expect(pixels.drawn).toBeGreaterThan(1000);
      expect(pixels.colour).toBeGreaterThan(50);
      const card = await page.getByTestId("clicks-chart").boundingBox();
      expect(pixels.width).toBeGreaterThan(card!.width - 60);
      // The table alternative holds the hours' clicks.
      const table = page.getByTestId("clicks-chart").getByRole("table");
      for (const [hour, n] of Object.entries(SEEDED.hourly)) {
        expect(await table.getByRole("row", { name: new RegExp(`^Hour ${hour} to ${Number(hour) + 1} `) }).locator("td").textContent()).toBe(String(n));
      }
      // Who responded: masked; the row opens the customer.
      const people = page.getByRole("region", { name: "Who responded" });
      expect(await people.locator("tbody tr").count()).toBe(answer.people.length);
      expect(await people.textContent()).not.toMatch(/\+1415555/);
      expect(await noSidewaysScroll(page)).toBe(true);
      await screenshot(page, `results-page-${device}`);
      await shotOf(page, "clicks-chart", `results-chart-${device}`);
      expect(await page.locator(".results-offer").textContent()).toMatch(/^Offer: BREAD5 for everyone, until /);
      // Download CSV: one line per recipient, its clicks adding up to the card's.
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
      expect(download.suggestedFilename()).toBe(`broadcast-${seeded.broadcastId}-results.csv`);
      const lines = (await Bun.file((await download.path())!).text()).trim().split(/\r?\n/);
      const header = lines[0]!.split(",");
      expect(lines).toHaveLength(1 + RECIPIENTS);
      const clicksAt = header.indexOf("clicks");
      expect(lines.slice(1).reduce((sum, l) => sum + Number(l.split(",")[clicksAt]), 0)).toBe(SEEDED.clicks);
      await page.getByTestId("clicks-chart").getByRole("button", { name: "Show as table" }).click();
      await page.getByTestId("clicks-chart").locator(".chart-table-wrap").waitFor();
      await screenshot(page, `results-page-table-${device}`);
      if (device === "desktop") {
        await page.getByTestId("clicks-chart").getByRole("button", { name: "Show as chart" }).click();
        // The window narrowed to a phone's: the chart follows its card's width and is drawn again.
        await page.setViewportSize(PHONE);
        const canvas = page.getByTestId("clicks-chart").locator(".chart-canvas canvas");
        await until(async () => (await canvas.evaluate((el) => el.getBoundingClientRect().width)) < PHONE.width, 5000, "the chart narrowed");
        expect((await canvasPixels(page, "clicks-chart", BRAND)).colour).toBeGreaterThan(20);
        expect(await noSidewaysScroll(page)).toBe(true);
      }
    }, { timeoutMs: 20_000 });
  }, 90_000);

  test(`the dashboard: this month, subscribers by source and opt-outs drawn, the last broadcast linking to its results (${device})`, async () => {
    const answer = (await shop.call("GET", `/api/business/GetBusinessDashboard?id=${shop.businessId}`, undefined, shop.token)).body as BusinessDashboard;
    await inBrowser(viewport, async ({ page }) => {
      await logInOnPage(page, shop.server.url);
      await page.goto(`${shop.server.url}/my-business`);
      await page.getByRole("link", { name: "Dashboard of Rosa's Corner Bakery" }).click();
      await page.waitForURL(`${shop.server.url}/businesses/dashboard/${shop.businessId}`);
      await page.getByTestId("month-messages").waitFor();
      expect(await cardValue(page, "month-messages")).toBe(answer.thisMonth.messagesSent.toLocaleString("en-US"));
      expect(await cardValue(page, "month-segments")).toBe(answer.thisMonth.segments.toLocaleString("en-US"));
      const subs = await canvasPixels(page, "subscribers-chart", BRAND);
      expect(subs.drawn).toBeGreaterThan(1000);
      expect(subs.colour).toBeGreaterThan(10);
      const outs = await canvasPixels(page, "opt-outs-chart", DANGER);
      expect(outs.colour).toBeGreaterThan(5);
      expect(await page.getByTestId("opt-out-ways").textContent()).toBe("How they left: STOP 1");
      const total = answer.subscribersOverTime.at(-1)!.total;
      expect(total).toBe(RECIPIENTS - SEEDED.optOuts);
      const lastRow = page.getByTestId("subscribers-chart").getByRole("table").locator("tbody tr").last();
      expect(await lastRow.locator("td").last().textContent()).toBe(String(total));
      const row = page.getByTestId(`dash-broadcast-${seeded.broadcastId}`);
      expect(await row.locator("td").nth(3).textContent()).toBe(String(SEEDED.clicks));
      expect(await row.locator("td").nth(4).textContent()).toBe(String(SEEDED.redemptions));
      expect(await noSidewaysScroll(page)).toBe(true);
      await screenshot(page, `dashboard-${device}`);
      await shotOf(page, "subscribers-chart", `dashboard-subscribers-${device}`);
      await shotOf(page, "opt-outs-chart", `dashboard-opt-outs-${device}`);
      await row.getByRole("link").click();
      await page.waitForURL(`${shop.server.url}/broadcasts/results/${seeded.broadcastId}`);
    }, { timeoutMs: 20_000 });
  }, 90_000);
}
