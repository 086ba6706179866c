// What the fair claim costs (issue 23, item 11): the dispatcher's claim takes turns between businesses
// (src/repos/sql/fair-turns.ts) instead of taking the queue in due order. A town-sized install in a real SQLite file:
// 500 businesses, 1,000,000 subscribers, every business broadcasting to its 2,000 at once (1,000,000 queued deliveries,
// written by the real publish). Then, side by side on the same file, one claim of each in turn:
//   - fair:     the deliveries repo's claim() as the dispatcher calls it;
//   - baseline: the claim before issue 23, the same UPDATE (claim.ts CLAIM_SET / CLAIM_RETURNING) on the rows
//               `ORDER BY next_attempt_at, id` gives, in the same durable transaction.
// Per batch size (1: paced at the default rate; 100: the unlimited dispatcher's batch) the median and p99 of a claim,
// durable (synchronous=FULL, as the dispatcher runs it) and without the fsync (NORMAL: the CPU and page work only,
// where a slower query would show), and the ratio fair/baseline.
//
//   npx bun bench/fair-claim.ts [--claims 200] [--rounds 3] [--cache-mb N (SQLite's page cache; default: the app's)]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createContext } from "../src/context.ts";
import { MemoryLogger } from "../src/lib/logger.ts";
import { durableTransactionRunner } from "../src/repos/transaction.ts";
import { CLAIM_RETURNING, CLAIM_SET } from "../src/repos/sql/claim.ts";
import { STILL_ENQUEUING } from "../src/repos/sql/delivery-rows.ts";
import { OPERATOR } from "../src/services/principal.ts";
import { insertBusiness, insertUser } from "../test/helpers/factories.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const BUSINESSES = option("businesses", 500);
const PER_BUSINESS = option("per-business", 2000);
const CLAIMS = Math.max(10, option("claims", 200));
const ROUNDS = Math.max(1, option("rounds", 3));
const BATCHES = [1, 100] as const;

const dir = mkdtempSync(join(tmpdir(), "nearcast-fair-claim-bench-"));
const ctx = createContext(loadConfig({}, { dataDir: dir }), { logger: new MemoryLogger() });
const sqlite = ctx.db.$client;
const CACHE_MB = option("cache-mb", 0);
if (CACHE_MB > 0) sqlite.exec(`PRAGMA cache_size = -${CACHE_MB * 1024}`);

async function build(): Promise<void> {
  const t0 = performance.now();
  const owner = insertUser(ctx, { email: "bench@example.com" });
  const ids = Array.from({ length: BUSINESSES }, (_, i) => insertBusiness(ctx, { ownerId: owner.id, name: `Shop ${i + 1}` }).id);
  const now = Date.now();
  const total = BUSINESSES * PER_BUSINESS;
  // Customer i follows business ids[floor((i - 1) / PER_BUSINESS)].
  sqlite.transaction(() => {
    sqlite.run(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
       INSERT INTO customers (phone, created_at) SELECT printf('+1415%07d', i), ?2 FROM n`,
      [total, now],
    );
    sqlite.run(
      `INSERT INTO subscriptions (customer_id, business_id, status, source, consent_at, consent_text, created_at)
       SELECT c.id, ?1 + (c.id - 1) / ?2, 'active', 'qr', ?3, 'bench', ?3 FROM customers c ORDER BY c.id`,
      [ids[0]!, PER_BUSINESS, now],
    );
  })();
  console.log(`built ${BUSINESSES} businesses and ${total.toLocaleString()} subscribers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const t1 = performance.now();
  for (const id of ids) {
    const res = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(id), messageText: `Shop ${id}: 2 for 1 today` });
    if (!("broadcastId" in res)) throw new Error("nothing queued");
  }
  const queued = (sqlite.query("SELECT COUNT(*) AS n FROM deliveries WHERE status = 'Queued'").get() as { n: number }).n;
  console.log(`published ${BUSINESSES} broadcasts: ${queued.toLocaleString()} queued deliveries in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
}

/** The claim before issue 23: the due rows in due order, across every business. */
function baselineClaim() {
  const durable = durableTransactionRunner(ctx.db);
  const anyDue = sqlite.prepare(`SELECT 1 AS one FROM deliveries WHERE status = 'Queued' AND next_attempt_at <= ?1 AND NOT ${STILL_ENQUEUING} LIMIT 1`);
  const claim = sqlite.prepare(
    `UPDATE deliveries SET ${CLAIM_SET}
     WHERE id IN (SELECT id FROM deliveries WHERE status = 'Queued' AND next_attempt_at <= ?1 AND NOT ${STILL_ENQUEUING}
                  ORDER BY next_attempt_at, id LIMIT ?2)
     RETURNING ${CLAIM_RETURNING}`,
  );
  return (now: number, limit: number) => (anyDue.get(now) ? durable(() => claim.all(now, limit)) : []);
}

type Side = "fair" | "baseline";
type Sync = "FULL" | "NORMAL";

/** Runs `fn` with the claim's FULL pragma made NORMAL (the fsync left out) when asked. */
function withSync<T>(sync: Sync, fn: () => T): T {
  if (sync === "FULL") return fn();
  const exec = sqlite.exec.bind(sqlite);
  sqlite.exec = ((sql: string, ...rest: unknown[]) =>
    exec(sql === "PRAGMA synchronous = FULL" ? "PRAGMA synchronous = NORMAL" : sql, ...(rest as []))) as typeof sqlite.exec;
  try {
    return fn();
  } finally {
    sqlite.exec = exec;
  }
}

const times = new Map<string, number[]>();
/** `CLAIMS` claims of each side, one of each in turn (the order swapped every time), so a busy moment weighs on both. */
function measurePair(sync: Sync, batch: number, sides: [Side, (now: number, limit: number) => unknown[]][]): void {
  withSync(sync, () => {
    for (let i = 0; i < CLAIMS; i++) {
      for (const [side, claim] of i % 2 === 0 ? sides : [...sides].reverse()) {
        const key = `${side} ${sync} ${batch}`;
        const list = times.get(key) ?? [];
        times.set(key, list);
        const t = performance.now();
        const rows = claim(Date.now(), batch);
        list.push(performance.now() - t);
        if (rows.length !== batch) throw new Error(`${key}: claimed ${rows.length}, not ${batch}`);
      }
    }
  });
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

await build();
const baseline = baselineClaim();
const fair = (now: number, limit: number) => ctx.repos.deliveries.claim(now, limit);
for (let round = 0; round < ROUNDS; round++) {
  for (const sync of ["NORMAL", "FULL"] as const) {
    for (const batch of BATCHES) measurePair(sync, batch, [["fair", fair], ["baseline", baseline]]);
  }
}

console.log(`\n${CLAIMS * ROUNDS} claims per cell, ${BUSINESSES} businesses, ${(BUSINESSES * PER_BUSINESS).toLocaleString()} queued at the start\n`);
console.log("| sync | batch | baseline median / p99 | fair median / p99 | fair / baseline (median) |");
console.log("|---|---|---|---|---|");
for (const sync of ["NORMAL", "FULL"] as const) {
  for (const batch of BATCHES) {
    const b = times.get(`baseline ${sync} ${batch}`)!;
    const f = times.get(`fair ${sync} ${batch}`)!;
    const ms = (x: number) => `${x.toFixed(3)} ms`;
    console.log(`| ${sync} | ${batch} | ${ms(quantile(b, 0.5))} / ${ms(quantile(b, 0.99))} | ${ms(quantile(f, 0.5))} / ${ms(quantile(f, 0.99))} | **${(quantile(f, 0.5) / quantile(b, 0.5)).toFixed(2)}x** |`);
  }
}
ctx.close();
rmSync(dir, { recursive: true, force: true });
