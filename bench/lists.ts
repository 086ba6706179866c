// The Customers screen with 50,000 subscribers (issue 12, item 2): one page of GET /api/customer/ListCustomers
// against the whole GET /api/customer/GetAllCustomers (the baseline, in the same run), and the screen's first rows in
// desktop Chromium, for this build and, with --baseline, an older build whose screen loads the whole list:
//
//   npx bun scripts/build.ts && npx bun bench/lists.ts [--baseline /tmp/nearcast-before] [--customers 50000]
//
// Targets: an API page under 20 ms at the median; first rows within 1 s.
//
// A town (issue 26 item 7; bench/_lists-town.ts): every build serving a copy of one install, requests in alternating
// rounds, the admin's pages and phone searches against an owner's page. Target: each ≤ 200 ms.
//
//   npx bun bench/lists.ts --shops 500 --customers 1000000 [--baseline /tmp/nearcast-before] [--rounds 5] [--per-round 5]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { DESKTOP, launchBrowser } from "../test/helpers/browser.ts";
import { sessionFor } from "../test/helpers/customer-factories.ts";
import { insertUser } from "../test/helpers/factories.ts";
import { seedShop } from "../test/helpers/seed-shop.ts";
import { startBinary } from "../test/helpers/server.ts";
import { townBench } from "./_lists-town.ts";

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const CUSTOMERS = Number(opt("--customers") ?? 50_000);
const builds: [string, string][] = [["this build", join(import.meta.dir, "..", "dist", "nearcast")]];
// --baseline may be given more than once: each build is named by its file's name after the first.
args.forEach((a, i) => a === "--baseline" && builds.push([builds.length === 1 ? "baseline" : basename(args[i + 1]!), args[i + 1]!]));
const SHOPS = Number(opt("--shops") ?? 1);
if (SHOPS > 1) {
  await townBench(builds, SHOPS, CUSTOMERS, Number(opt("--rounds") ?? 5), Number(opt("--per-round") ?? 5));
  process.exit(0);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;

async function timed(url: string, token: string, times: number): Promise<{ ms: number[]; bytes: number; status: number }> {
  const ms: number[] = [];
  let bytes = 0;
  let status = 0;
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.arrayBuffer();
    ms.push(performance.now() - t0);
    bytes = body.byteLength;
    status = res.status;
  }
  return { ms, bytes, status };
}

interface Result {
  page?: { median: number; p99: number; bytes: number };
  all: { median: number; bytes: number };
  firstRowsMs: number;
  heapMb: number;
}

async function measure(binary: string): Promise<Result> {
  const dataDir = mkdtempSync(join(tmpdir(), "nearcast-bench-lists-"));
  const token = await seedShop(dataDir, { ownerEmail: "lists@example.com", businessName: "Big List Bakery", subscribers: CUSTOMERS, firstNumber: 5_000_000 }, (ctx) => {
    insertUser(ctx, { role: "admin", email: "admin@example.com" }); // or the screens open the first-run setup
    return sessionFor(ctx, ctx.repos.users.findByEmail("lists@example.com")!);
  });
  const server = await startBinary({ NEARCAST_LOG_LEVEL: "error" }, dataDir, { binary });
  try {
    const out: Result = { all: { median: 0, bytes: 0 }, firstRowsMs: 0, heapMb: 0 };
    const page = await timed(`${server.url}/api/customer/ListCustomers?limit=50`, token, 5);
    if (page.status === 200) {
      const runs = await timed(`${server.url}/api/customer/ListCustomers?limit=50`, token, 200);
      out.page = { median: median(runs.ms), p99: p99(runs.ms), bytes: runs.bytes };
    }
    const all = await timed(`${server.url}/api/customer/GetAllCustomers`, token, 5);
    out.all = { median: median(all.ms), bytes: all.bytes };

    const browser = await launchBrowser(DESKTOP);
    try {
      const { page: tab, context } = browser;
      await tab.goto(`${server.url}/about`);
      await tab.evaluate((t) => localStorage.setItem("token", t), token);
      const cdp = await context.newCDPSession(tab);
      const t0 = performance.now();
      await tab.goto(`${server.url}/customers`);
      await tab.locator(".cust-phone").first().waitFor({ timeout: Number(opt("--timeout") ?? 300_000) }).catch(async (err) => {
        console.error(`no rows at ${tab.url()}: ${(await tab.locator("main, body").first().textContent())?.slice(0, 300)}`);
        throw err;
      });
      out.firstRowsMs = performance.now() - t0;
      const heap = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
      out.heapMb = heap.usedSize / 1024 / 1024;
    } finally {
      await browser.close();
    }
    return out;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const f = (n: number, d = 1) => n.toFixed(d);
const results: [string, Result][] = [];
for (const [name, binary] of builds) results.push([name, await measure(binary)]);
console.log(`${CUSTOMERS.toLocaleString("en-US")} subscribers, ${new Date().toISOString().slice(0, 10)}`);
for (const [name, r] of results) {
  console.log(`${name}:`);
  if (r.page) console.log(`  ListCustomers (50 rows): median ${f(r.page.median)} ms, p99 ${f(r.page.p99)} ms, ${(r.page.bytes / 1024).toFixed(1)} KB`);
  console.log(`  GetAllCustomers (all rows): median ${f(r.all.median)} ms, ${(r.all.bytes / 1024 / 1024).toFixed(1)} MB`);
  console.log(`  /customers first rows: ${f(r.firstRowsMs, 0)} ms; JS heap ${f(r.heapMb)} MB`);
}
const [mine] = results;
if (mine?.[1].page) console.log(`ratio GetAllCustomers / ListCustomers page (median): ${f(mine[1].all.median / mine[1].page.median)}x`);
if (results.length === 2) {
  const [a, b] = [results[0]![1], results[1]![1]];
  console.log(`ratio baseline / this build: first rows ${f(b.firstRowsMs / a.firstRowsMs)}x, JS heap ${f(b.heapMb / a.heapMb)}x`);
}
