// An outside yardstick (issue 26, item 5): Lighthouse 12, mobile with its default (simulated Slow 4G, CPU 4x)
// throttling, against every public page of the built executable on an empty data dir seeded with two businesses.
// Prints the four scores (performance, accessibility, best practices, SEO) per page and every audit that failed.
//
//   node_modules/.bin/bun scripts/build.ts && node_modules/.bin/bun bench/lighthouse.ts
//     [--baseline /tmp/nearcast-before/dist/nearcast] [--nearcast path/to/executable] [--runs 3] [--only /login,/terms]
//     [--save dir]
//
// --baseline: another build audited in the same run, page by page in turns with this one, on its own seeded copy.
// --runs N: N Lighthouse runs per page (taken in turns), the run with the median performance score is shown.
// --save DIR: keeps every JSON report there. Lighthouse is installed from npm into bench/lighthouse/ (its own
// package.json and lockfile) on first use; it runs on Node with Debian's chromium, loopback only.
//
// Target: 100 in accessibility, best practices and SEO on every page, performance >= 95.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { businesses } from "../src/db/schema.ts";
import type { AppContext } from "../src/context.ts";
import { insertBusiness, insertUser } from "../test/helpers/factories.ts";
import { png } from "../test/helpers/images.ts";
import { seedShop } from "../test/helpers/seed-shop.ts";
import { type RunningBinary, startBinary } from "../test/helpers/server.ts";
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

/**
 * One Lighthouse run (a fresh chromium each time) of `url`: its JSON report. On a busy machine Lighthouse now and then
 * fails to record the trace (NO_NAVSTART): such a run is tried again, up to three times.
 */
function lighthouse(url: string, save?: string, label = ""): Report {
  for (let attempt = 1; ; attempt++) {
    try {
      return lighthouseOnce(url, save, label);
    } catch (e) {
      if (attempt === 3) throw e;
      console.log(`  (${url}: ${(e as Error).message.split("\n").slice(1).join(" ").trim()}; again)`);
    }
  }
}

function lighthouseOnce(url: string, save: string | undefined, label: string): Report {
  const dir = mkdtempSync(join(tmpdir(), "nearcast-lh-"));
  try {
    const out = join(dir, "report.json");
    const cli = [LIGHTHOUSE_CLI, url, "--quiet", "--output=json", `--output-path=${out}`, `--only-categories=${CATEGORIES.join(",")}`];
    const res = Bun.spawnSync(["node", ...cli, "--chrome-flags=--headless=new --no-sandbox --disable-gpu"], {
      env: { ...process.env, CHROME_PATH: CHROME },
      stdout: "pipe",
      stderr: "pipe",
    });
    if (res.exitCode !== 0) throw new Error(`lighthouse ${url} failed (${res.exitCode}):\n${res.stderr.toString()}`);
    const json = readFileSync(out, "utf8");
    if (save) writeFileSync(join(save, `${label.replace(/\W+/g, "-")}${new URL(url).pathname.replace(/\W+/g, "_") || "_"}-${Date.now()}.json`), json);
    return JSON.parse(json) as Report;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

/** The metrics the performance score is made of, as Lighthouse shows them. */
const METRICS: [string, string][] = [
  ["first-contentful-paint", "FCP"],
  ["largest-contentful-paint", "LCP"],
  ["total-blocking-time", "TBT"],
  ["cumulative-layout-shift", "CLS"],
  ["speed-index", "SI"],
];
const METRIC_IDS = METRICS.map(([id]) => id);
const metrics = (r: Report) => METRICS.map(([id, name]) => `${name} ${r.audits[id]?.displayValue ?? "?"}`).join(", ");

/** A logo and a sample product photo, stored as uploads are, on the business: the pages' images get audited too. */
async function withImages(ctx: AppContext, id: number): Promise<void> {
  const business = ctx.db.select().from(businesses).where(eq(businesses.id, id)).get()!;
  const stripes = (x: number, y: number): [number, number, number] => ((x + y) % 64 < 32 ? [217, 119, 6] : [254, 243, 199]);
  const logo = await ctx.services.uploads.saveBytes(business.ownerId, "logo", png(256, 256, stripes));
  const sample = await ctx.services.uploads.saveBytes(business.ownerId, "sample", png(960, 540, stripes));
  ctx.db.update(businesses).set({ logoImagePath: logo.filePath, sampleImagePath: sample.filePath }).where(eq(businesses.id, id)).run();
}

interface Side {
  label: string;
  server: RunningBinary;
  businessId: number;
  reports: Map<string, Report[]>;
}

/** A private copy of `built` on a fresh data dir with two businesses (one with a logo and a sample photo, one with neither). */
async function start(label: string, built: string, work: string): Promise<Side> {
  const dir = join(work, label.replace(/\W+/g, "-"));
  mkdirSync(dir);
  const businessId = await seedShop(join(dir, "data"), { ownerEmail: "rosa@example.com", businessName: "Rosa's Corner Bakery", subscribers: 0, firstNumber: 0 }, async (ctx, id) => {
    insertUser(ctx, { role: "admin", email: "admin@example.com" }); // or the pages open the first-run setup
    insertBusiness(ctx, { name: "Marco's Bicycle Repair", address: "12 Harbour Road, Springfield" });
    await withImages(ctx, id);
    return id;
  });
  const server = await startBinary({ NEARCAST_LOG_LEVEL: "error" }, join(dir, "data"), { binary: privateCopy(built, dir) });
  return { label, server, businessId, reports: new Map() };
}

/** The table of one build (the run with the median performance score of each page) and the audits that cost points. */
function summary(side: Side): boolean {
  console.log(`\n${side.label}\n${"page".padEnd(22)} ${"perf".padStart(5)} ${"a11y".padStart(5)} ${"best".padStart(5)} ${"seo".padStart(5)}   metrics`);
  const shown: [string, Report][] = [];
  for (const [page, runs] of side.reports) {
    const mid = median(runs.map((r) => score(r, "performance")));
    const r = runs.find((x) => score(x, "performance") === mid) ?? runs[0]!;
    shown.push([page, r]);
    console.log(`${page.padEnd(22)} ${CATEGORIES.map((c) => String(score(r, c)).padStart(5)).join(" ")}   ${metrics(r)}`);
  }
  console.log("Audits that cost points (the metrics above aside) and what Lighthouse suggests for speed:");
  let clean = true;
  for (const [page, r] of shown) {
    for (const c of CATEGORIES) {
      for (const a of failing(r, c).filter((x) => !METRIC_IDS.includes(x.id))) {
        clean = false;
        const savings = Object.entries(a.metricSavings ?? {}).filter(([, v]) => v > 0);
        const saved = savings.length ? `saves ${savings.map(([k, v]) => `${k} ${Math.round(v)} ms`).join(", ")}` : "";
        console.log(`  ${page} [${c}] ${a.id}: ${a.title}${a.displayValue || saved ? ` (${[a.displayValue, saved].filter(Boolean).join("; ")})` : ""}`);
      }
    }
  }
  if (clean) console.log("  none");
  const missed = shown.filter(([, r]) => score(r, "performance") < 95 || CATEGORIES.slice(1).some((c) => score(r, c) < 100));
  console.log(missed.length ? `Below target (performance >= 95, the others 100): ${missed.map(([p]) => p).join(", ")}` : "Every page on target.");
  return missed.length === 0;
}

ensureInstalled(LIGHTHOUSE_DIR, ["lighthouse"]);
const save = opt("--save");
if (save) mkdirSync(save, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "nearcast-bench-lighthouse-"));
const builds: [string, string][] = [["this build", opt("--nearcast") ?? join(import.meta.dir, "..", "dist", "nearcast")]];
if (opt("--baseline")) builds.push(["baseline", opt("--baseline")!]);
const only = opt("--only")?.split(",");
const wanted = (p: string) => !only || only.some((o) => (o === "/" ? p === "/" : p.startsWith(o)));
const sides: Side[] = [];
console.log(`Lighthouse 12 (mobile, default throttling), ${RUNS} run(s) per page, ${new Date().toISOString()}, ${machine()}`);
try {
  for (const [label, built] of builds) sides.push(await start(label, built, work));
  // Page by page, the builds in turns: a busier moment of the machine weighs on both alike.
  for (let run = 0; run < RUNS; run++) {
    for (const pattern of PAGES) {
      for (const side of sides) {
        const page = pattern.replace(":id", String(side.businessId));
        if (!wanted(page)) continue;
        const r = lighthouse(`${side.server.url.replace(/\/$/, "")}${page}`, save, side.label);
        if (r.runtimeError) console.log(`${page}: ${r.runtimeError.message}`);
        side.reports.set(page, [...(side.reports.get(page) ?? []), r]);
        const load = readFileSync("/proc/loadavg", "utf8").split(" ")[0];
        console.log(`  run ${run + 1} ${side.label} ${page}: ${CATEGORIES.map((c) => score(r, c)).join(" / ")}   (load ${load})`);
      }
    }
  }
} finally {
  for (const side of sides) await side.server.stop();
  rmSync(work, { recursive: true, force: true });
}
for (const side of sides) summary(side);
