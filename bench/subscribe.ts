// Subscribe throughput: dist/nearcast against a Node baseline (Fastify + better-sqlite3, bench/baseline-subscribe/),
// same load generator (autocannon), side by side, loopback only, bounded duration. Checks afterwards that every
// acknowledged subscription is in the database.
//   npx bun scripts/build.ts && npx bun bench/subscribe.ts [--seconds 10] [--connections 50]
import { Database } from "bun:sqlite";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createContext } from "../src/context.ts";
import { businesses, businessTypes, users } from "../src/db/schema.ts";
import { MemoryLogger } from "../src/lib/logger.ts";

const root = join(import.meta.dir, "..");
const baselineDir = join(import.meta.dir, "baseline-subscribe");
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg("seconds", 10);
const CONNECTIONS = arg("connections", 50);
const WARMUP_SECONDS = 2;
const ROUNDS = 5;
const TARGET = 3.5;

export interface SideResult {
  name: string;
  rps: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  latencyP50: number;
  latencyP99: number;
  rows: number;
  acknowledged: number;
}

interface Side {
  name: string;
  url: string;
  businessId: number;
  dbFile: string;
  stop(): Promise<void>;
}

interface LoadResult {
  requests: number;
  rps: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latencyP50: number;
  latencyP99: number;
  phonesUsed: number;
}

/** Starts a server process and resolves with its URL once it logs "listening on http://...". */
async function start(cmd: string[], env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const proc = Bun.spawn(cmd, { env: { PATH: process.env.PATH ?? "", ...env }, stdout: "ignore", stderr: "pipe" });
  let log = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 15_000);
    (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) {
        log += decoder.decode(chunk);
        const m = /listening on (http:\/\/[^\s]+)/.exec(log);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1].replace("localhost", "127.0.0.1"));
          return;
        }
      }
      reject(new Error(`server exited:\n${log}`));
    })();
  });
  return {
    url,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** One autocannon run (a separate Node process, the same for both sides). */
function load(url: string, businessId: number, seconds: number, firstPhone: number): LoadResult {
  const res = Bun.spawnSync(
    ["node", join(baselineDir, "load.mjs"), url, String(businessId), String(seconds), String(CONNECTIONS), String(firstPhone)],
    { cwd: baselineDir, stdout: "pipe", stderr: "inherit" },
  );
  if (res.exitCode !== 0) throw new Error(`load generator failed (${res.exitCode})`);
  return JSON.parse(res.stdout.toString().trim().split("\n").at(-1)!) as LoadResult;
}

function countRows(file: string, table: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function startNearcast(work: string): Promise<Side> {
  const built = join(root, "dist", "nearcast");
  if (!existsSync(built)) throw new Error("dist/nearcast is missing: build it first (npx bun scripts/build.ts)");
  // A private copy: a rebuild in the checkout during the run must not swap the binary under us.
  const bin = join(work, "nearcast");
  copyFileSync(built, bin);
  chmodSync(bin, 0o755);
  const dataDir = join(work, "nearcast-data");
  const ctx = createContext(loadConfig({}, { dataDir }), { logger: new MemoryLogger() });
  const owner = ctx.db.insert(users).values({ email: "bench@example.com", firstName: "Bench", lastName: "Owner", passwordHash: "x" }).returning().get();
  const type = ctx.db.insert(businessTypes).values({ name: "Bakery" }).returning().get();
  const business = ctx.db
    .insert(businesses)
    .values({ ownerId: owner.id, businessTypeId: type.id, name: "Bench Bakery", address: "1 Bench Street", phone: "(415) 555-0100", sampleProductText: "Bread" })
    .returning()
    .get();
  ctx.close();
  const server = await start([bin, "serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", dataDir], { NEARCAST_SUBSCRIBE_LIMIT: "0" });
  return { name: "nearcast (Bun, Hono, drizzle)", url: server.url, businessId: business.id, dbFile: join(dataDir, "nearcast.db"), stop: server.stop };
}

async function startBaseline(work: string): Promise<Side> {
  const file = join(work, "baseline.db");
  const server = await start(["node", join(baselineDir, "server.mjs"), "0", file], {});
  return { name: "baseline (Node, Fastify, better-sqlite3)", url: server.url, businessId: 1, dbFile: file, stop: server.stop };
}

/**
 * Both servers run side by side; the load goes to one at a time, alternating in ROUNDS slices, so machine noise
 * (other processes on a small box) hits both alike. Afterwards every 2xx must be a row (rows may exceed it:
 * requests in flight when a slice ends are stored but not counted as answered).
 */
async function measure(sides: Side[]): Promise<SideResult[]> {
  const totals = sides.map(() => ({ requests: 0, ok: 0, non2xx: 0, errors: 0, p50: [] as number[], p99: [] as number[], acknowledged: 0 }));
  // Every request uses a phone number not used before on that side: each acknowledged one must be a new row.
  sides.forEach((side, i) => {
    totals[i]!.acknowledged += load(side.url, side.businessId, WARMUP_SECONDS, 0).ok;
  });
  const slice = SECONDS / ROUNDS;
  for (let round = 0; round < ROUNDS; round++) {
    sides.forEach((side, i) => {
      const r = load(side.url, side.businessId, slice, (round + 1) * 1_000_000);
      const t = totals[i]!;
      t.requests += r.requests;
      t.ok += r.ok;
      t.non2xx += r.non2xx;
      t.errors += r.errors + r.timeouts;
      t.p50.push(r.latencyP50);
      t.p99.push(r.latencyP99);
      t.acknowledged += r.ok;
    });
  }
  const results: SideResult[] = [];
  for (const [i, side] of sides.entries()) {
    await side.stop();
    const t = totals[i]!;
    results.push({
      name: side.name,
      rps: t.requests / SECONDS,
      requests: t.requests,
      ok: t.ok,
      non2xx: t.non2xx,
      errors: t.errors,
      latencyP50: Math.max(...t.p50),
      latencyP99: Math.max(...t.p99),
      rows: countRows(side.dbFile, "subscriptions"),
      acknowledged: t.acknowledged,
    });
  }
  return results;
}

function ensureBaselineInstalled(): void {
  if (existsSync(join(baselineDir, "node_modules", "autocannon")) && existsSync(join(baselineDir, "node_modules", "better-sqlite3"))) return;
  console.log("Installing the baseline's pinned dependencies (npm ci in bench/baseline-subscribe)...");
  const res = Bun.spawnSync(["npm", "ci", "--no-audit", "--no-fund"], { cwd: baselineDir, stdout: "inherit", stderr: "inherit" });
  if (res.exitCode !== 0) throw new Error(`npm ci in bench/baseline-subscribe failed (${res.exitCode})`);
}

export async function runSubscribeBench(): Promise<{ nearcast: SideResult; baseline: SideResult; ratio: number; ok: boolean }> {
  ensureBaselineInstalled();
  const work = mkdtempSync(join(tmpdir(), "nearcast-bench-subscribe-"));
  try {
    console.log(
      `Subscribe benchmark: ${SECONDS} s per side in ${ROUNDS} alternating slices after a ${WARMUP_SECONDS} s warm-up, ` +
        `${CONNECTIONS} connections, loopback.`,
    );
    const sides = [await startNearcast(work), await startBaseline(work)];
    const [nearcast, baseline] = (await measure(sides)) as [SideResult, SideResult];
    const ratio = nearcast.rps / baseline.rps;
    const f = (n: number) => Math.round(n).toLocaleString("en-US");
    console.log("");
    console.log(`${"".padEnd(42)} ${"req/s".padStart(9)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"2xx".padStart(9)} ${"non-2xx".padStart(8)} ${"rows".padStart(9)}`);
    for (const s of [nearcast, baseline]) {
      console.log(
        `${s.name.padEnd(42)} ${f(s.rps).padStart(9)} ${String(s.latencyP50).padStart(7)} ${String(s.latencyP99).padStart(7)} ${f(s.ok).padStart(9)} ${f(s.non2xx + s.errors).padStart(8)} ${f(s.rows).padStart(9)}`,
      );
    }
    const complete = [nearcast, baseline].every((s) => s.rows >= s.acknowledged && s.non2xx + s.errors === 0);
    console.log("");
    console.log(`ratio nearcast / baseline: ${ratio.toFixed(2)}x (target >= ${TARGET}x) ${ratio >= TARGET ? "OK" : "BELOW TARGET"}`);
    console.log(`every acknowledged subscription stored: ${complete ? "yes" : "NO"} (rows >= 2xx incl. warm-up, no errors)`);
    console.log(`(p50/p99: the worst slice; req/s: all slices' requests / ${SECONDS} s)`);
    return { nearcast, baseline, ratio, ok: complete };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { ok } = await runSubscribeBench();
  if (!ok) process.exit(1);
}
