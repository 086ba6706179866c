// An outside yardstick (issue 26, item 5): Lighthouse 12, mobile with its default (simulated Slow 4G, CPU 4x)
// throttling, against every public page of the built executable on an empty data dir seeded with two businesses.
// Prints the four scores (performance, accessibility, best practices, SEO) per page and every audit that failed.
//
//   node_modules/.bin/bun scripts/build.ts && node_modules/.bin/bun bench/lighthouse.ts
//     [--nearcast path/to/executable] [--runs 3] [--only /login,/terms] [--save dir]
//
// --runs N: N Lighthouse runs per page (taken in turns), the run with the median performance score is shown.
// --save DIR: keeps every JSON report there. Lighthouse is installed from npm into bench/lighthouse/ (its own
// package.json and lockfile) on first use; it runs on Node with Debian's chromium, loopback only.
//
// Target: 100 in accessibility, best practices and SEO on every page, performance >= 95.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { insertBusiness, insertUser } from "../test/helpers/factories.ts";
import { seedShop } from "../test/helpers/seed-shop.ts";
import { startBinary } from "../test/helpers/server.ts";
import { ensureInstalled, machine, median, privateCopy } from "./lib/harness.ts";

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const RUNS = Number(opt("--runs") ?? 1);
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const LIGHTHOUSE_DIR = join(import.meta.dir, "lighthouse");
const LIGHTHOUSE_CLI = join(LIGHTHOUSE_DIR, "node_modules", "lighthouse", "cli", "index.js");

/** The public pages (the spec's route table, section 2); :id is the seeded business. */
const PAGES = ["/", "/businesses", "/subscribe?id=:id", "/login", "/register", "/forgot-password", "/terms", "/privacy", "/about", "/faq"];

interface Audit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  /** What fixing it would save, per metric (ms for LCP/FCP/TBT). */
  metricSavings?: Record<string, number>;
}
interface Report {
  categories: Record<(typeof CATEGORIES)[number], { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, Audit>;
  runtimeError?: { message: string };
}

/** One Lighthouse run (a fresh chromium each time) of `url`: its JSON report. */
function lighthouse(url: string, save?: string): Report {
  const out = join(mkdtempSync(join(tmpdir(), "nearcast-lh-")), "report.json");
  const res = Bun.spawnSync(
    [
      "node",
      LIGHTHOUSE_CLI,
      url,
      "--quiet",
      "--output=json",
      `--output-path=${out}`,
      `--only-categories=${CATEGORIES.join(",")}`,
      "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
    ],
    { env: { ...process.env, CHROME_PATH: CHROME }, stdout: "pipe", stderr: "pipe" },
  );
  if (res.exitCode !== 0) throw new Error(`lighthouse ${url} failed (${res.exitCode}):\n${res.stderr.toString()}`);
  const json = readFileSync(out, "utf8");
  rmSync(join(out, ".."), { recursive: true, force: true });
  if (save) writeFileSync(join(save, `${new URL(url).pathname.replace(/\W+/g, "_") || "_"}-${Date.now()}.json`), json);
  return JSON.parse(json) as Report;
}

const score = (r: Report, c: (typeof CATEGORIES)[number]) => Math.round((r.categories[c].score ?? 0) * 100);

/**
 * The audits of a category that cost points (weighted and below full marks) and, for performance, the unweighted
 * insights that name a saving (what Lighthouse suggests for the metrics).
 */
function failing(r: Report, c: (typeof CATEGORIES)[number]): Audit[] {
  const saves = (a: Audit) => Object.values(a.metricSavings ?? {}).some((v) => v > 0);
  return r.categories[c].auditRefs
    .map((ref) => ({ ref, audit: r.audits[ref.id]! }))
    .filter(({ ref, audit }) => audit.score !== null && audit.score < 1 && (ref.weight > 0 || (c === "performance" && saves(audit))))
    .map(({ audit }) => audit);
}

/** The key metrics of a performance run, as Lighthouse shows them. */
function metrics(r: Report): string {
  const ids: [string, string][] = [
    ["first-contentful-paint", "FCP"],
    ["largest-contentful-paint", "LCP"],
    ["total-blocking-time", "TBT"],
    ["cumulative-layout-shift", "CLS"],
    ["speed-index", "SI"],
  ];
  return ids.map(([id, name]) => `${name} ${r.audits[id]?.displayValue ?? "?"}`).join(", ");
}

ensureInstalled(LIGHTHOUSE_DIR, ["lighthouse"]);
const save = opt("--save");
if (save) mkdirSync(save, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "nearcast-bench-lighthouse-"));
const dataDir = join(work, "data");
const binary = privateCopy(opt("--nearcast") ?? join(import.meta.dir, "..", "dist", "nearcast"), work);
const businessId = await seedShop(dataDir, { ownerEmail: "rosa@example.com", businessName: "Rosa's Corner Bakery", subscribers: 0, firstNumber: 0 }, (ctx, id) => {
  insertUser(ctx, { role: "admin", email: "admin@example.com" }); // or the pages open the first-run setup
  insertBusiness(ctx, { name: "Marco's Bicycle Repair", address: "12 Harbour Road, Springfield" });
  return id;
});
const server = await startBinary({ NEARCAST_LOG_LEVEL: "error" }, dataDir, { binary });
const only = opt("--only")?.split(",");
const pages = PAGES.map((p) => p.replace(":id", String(businessId))).filter((p) => !only || only.some((o) => p.startsWith(o) && (o !== "/" || p === "/")));
const reports = new Map<string, Report[]>(pages.map((p) => [p, []]));
console.log(`Lighthouse 12 (mobile, default throttling), ${RUNS} run(s) per page, ${new Date().toISOString()}, ${machine()}`);
try {
  for (let run = 0; run < RUNS; run++) {
    for (const page of pages) {
      const r = lighthouse(`${server.url.replace(/\/$/, "")}${page}`, save);
      if (r.runtimeError) console.log(`${page}: ${r.runtimeError.message}`);
      reports.get(page)!.push(r);
      console.log(`  run ${run + 1} ${page}: ${CATEGORIES.map((c) => score(r, c)).join(" / ")}   (load ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})`);
    }
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

console.log(`\n${"page".padEnd(22)} ${"perf".padStart(5)} ${"a11y".padStart(5)} ${"best".padStart(5)} ${"seo".padStart(5)}   metrics`);
const shown: [string, Report][] = [];
for (const [page, runs] of reports) {
  const mid = median(runs.map((r) => score(r, "performance")));
  const r = runs.find((x) => score(x, "performance") === mid) ?? runs[0]!;
  shown.push([page, r]);
  console.log(`${page.padEnd(22)} ${CATEGORIES.map((c) => String(score(r, c)).padStart(5)).join(" ")}   ${metrics(r)}`);
}
console.log("\nAudits that lost points (of the run shown):");
let clean = true;
for (const [page, r] of shown) {
  for (const c of CATEGORIES) {
    for (const a of failing(r, c)) {
      clean = false;
      const savings = Object.entries(a.metricSavings ?? {}).filter(([, v]) => v > 0);
      const saved = savings.length ? `, saves ${savings.map(([k, v]) => `${k} ${Math.round(v)}`).join(" ")}` : "";
      console.log(`  ${page} [${c}] ${a.id}: ${a.title}${a.displayValue ? ` (${a.displayValue}${saved})` : saved ? ` (${saved.slice(2)})` : ""}`);
    }
  }
}
if (clean) console.log("  none");
const missed = shown.filter(([, r]) => score(r, "performance") < 95 || CATEGORIES.slice(1).some((c) => score(r, c) < 100));
console.log(missed.length ? `\nBelow target (100 / 100 / 100, performance >= 95): ${missed.map(([p]) => p).join(", ")}` : "\nEvery page on target.");
