// The results page and the dashboard at size (issue 25, items 3-5): 50,000 subscribers, 20 broadcasts of 50,000
// (1,000,000 deliveries), clicks and redemptions on the last ones and opt-outs, served by the built executable.
// Times GET GetBroadcastResults and GetBusinessDashboard (and the CSV export) side by side with reads that exist in
// the same run (GetBroadcastStatus of the same broadcast, BroadcastReport for the CSV), 20 runs each:
//
//   node_modules/.bin/bun scripts/build.ts && node_modules/.bin/bun bench/results.ts [--subscribers 50000] [--broadcasts 20] [--runs 20]
//
// Target: each read well under the 1.5 s first-paint budget of the pages (the pages' own first paint: PAGES below).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sessionFor } from "../test/helpers/customer-factories.ts";
import { insertUser } from "../test/helpers/factories.ts";
import { seedShop } from "../test/helpers/seed-shop.ts";
import { startBinary } from "../test/helpers/server.ts";
import { seedResults } from "./lib/seed-results.ts";

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const SUBSCRIBERS = Number(opt("--subscribers") ?? 50_000);
const BROADCASTS = Number(opt("--broadcasts") ?? 20);
const RUNS = Number(opt("--runs") ?? 20);
const BINARY = opt("--binary") ?? join(import.meta.dir, "..", "dist", "nearcast");

/**
 * The screens' first paint (issue 25's "≤ 1.5 s"): each page of the web app opened in desktop Chromium once the API
 * numbers are taken, until its first numbers show and until its chart has drawn (uPlot is its own chunk, fetched
 * then); `firstPaint` (below) measures each on the same database and server.
 */
export const PAGES: { name: string; path: (ids: SeedIds) => string; ready: string }[] = [
  { name: "results page, numbers", path: (ids) => `/broadcasts/results/${ids.broadcastId}`, ready: '[data-testid="card-clicks"]' },
  { name: "results page, chart drawn", path: (ids) => `/broadcasts/results/${ids.broadcastId}`, ready: '[data-testid="clicks-chart"] .chart-canvas canvas' },
  { name: "dashboard, numbers", path: (ids) => `/businesses/dashboard/${ids.businessId}`, ready: '[data-testid="month-messages"]' },
  { name: "dashboard, charts drawn", path: (ids) => `/businesses/dashboard/${ids.businessId}`, ready: '[data-testid="subscribers-chart"] .chart-canvas canvas' },
];

export interface SeedIds {
  businessId: number;
  /** The newest broadcast (clicks, redemptions, opt-outs). */
  broadcastId: number;
  token: string;
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

async function timed(url: string, token: string, times: number): Promise<{ median: number; p95: number; bytes: number }> {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < times + 2; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${new TextDecoder().decode(body).slice(0, 200)}`);
    if (i >= 2) ms.push(performance.now() - t0); // the first two warm the statements and the page cache
    bytes = body.byteLength;
  }
  return { median: median(ms), p95: p95(ms), bytes };
}

const dataDir = mkdtempSync(join(tmpdir(), "nearcast-bench-results-"));
try {
  const t0 = performance.now();
  const ids = await seedShop(dataDir, { ownerEmail: "results@example.com", businessName: "Busy Bakery", subscribers: SUBSCRIBERS, firstNumber: 5_000_000 }, (ctx, businessId) => {
    insertUser(ctx, { role: "admin", email: "admin@example.com" });
    const broadcastId = seedResults(ctx.db.$client, businessId, { subscribers: SUBSCRIBERS, broadcasts: BROADCASTS });
    return { businessId, broadcastId, token: sessionFor(ctx, ctx.repos.users.findByEmail("results@example.com")!) };
  });
  const seeded = (performance.now() - t0) / 1000;
  const server = await startBinary({ NEARCAST_LOG_LEVEL: "error" }, dataDir, { binary: BINARY, startTimeoutMs: 60_000 });
  try {
    const api = (path: string) => `${server.url}/api/business/${path}`;
    const rows: [string, Awaited<ReturnType<typeof timed>>][] = [
      ["GetBroadcastStatus (baseline)", await timed(api(`GetBroadcastStatus?id=${ids.broadcastId}`), ids.token, RUNS)],
      ["GetBroadcastResults", await timed(api(`GetBroadcastResults?id=${ids.broadcastId}`), ids.token, RUNS)],
      ["GetBusinessDashboard", await timed(api(`GetBusinessDashboard?id=${ids.businessId}`), ids.token, RUNS)],
      ["BroadcastReport CSV (baseline)", await timed(api(`BroadcastReport?id=${ids.broadcastId}`), ids.token, 5)],
      ["ExportBroadcastResults CSV", await timed(api(`ExportBroadcastResults?id=${ids.broadcastId}`), ids.token, 5)],
    ];
    const f = (n: number) => n.toFixed(1);
    console.log(`${SUBSCRIBERS.toLocaleString("en-US")} subscribers, ${(SUBSCRIBERS * BROADCASTS).toLocaleString("en-US")} deliveries (${BROADCASTS} broadcasts), seeded in ${seeded.toFixed(0)} s; ${new Date().toISOString().slice(0, 10)}`);
    for (const [name, r] of rows) console.log(`  ${name.padEnd(31)} median ${f(r.median).padStart(7)} ms  p95 ${f(r.p95).padStart(7)} ms  ${(r.bytes / 1024).toFixed(1)} KB`);
    const by = Object.fromEntries(rows);
    const base = by["GetBroadcastStatus (baseline)"]!.median;
    console.log(`ratio to GetBroadcastStatus (median): results ${f(by.GetBroadcastResults!.median / base)}x, dashboard ${f(by.GetBusinessDashboard!.median / base)}x`);
    console.log(`ratio ExportBroadcastResults / BroadcastReport (median): ${f(by["ExportBroadcastResults CSV"]!.median / by["BroadcastReport CSV (baseline)"]!.median)}x`);
    await firstPaint(server.url, ids);
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

/** Each page of PAGES in desktop Chromium: from navigation to its `ready` selector (the token set beforehand). */
async function firstPaint(url: string, ids: SeedIds): Promise<void> {
  if (PAGES.length === 0) return;
  const { DESKTOP, launchBrowser } = await import("../test/helpers/browser.ts");
  const browser = await launchBrowser(DESKTOP);
  try {
    const { page: tab } = browser;
    await tab.goto(`${url}/about`);
    await tab.evaluate((t) => localStorage.setItem("token", t), ids.token);
    // The first opening loads the app cold (its bundle, then uPlot's chunk); the next ones come from the cache.
    for (const p of PAGES) {
      const times: number[] = [];
      for (let i = 0; i < 4; i++) {
        const t0 = performance.now();
        await tab.goto(`${url}${p.path(ids)}`);
        await tab.locator(p.ready).first().waitFor({ timeout: 60_000 });
        times.push(performance.now() - t0);
        await tab.goto(`${url}/about`);
      }
      const warm = times.slice(1).sort((a, b) => a - b);
      console.log(`  ${p.name}: first ${times[0]!.toFixed(0)} ms, then median ${warm[1]!.toFixed(0)} ms`);
    }
  } finally {
    await browser.close();
  }
}
