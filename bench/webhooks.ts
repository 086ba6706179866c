// Status-callback throughput: signed Twilio status callbacks per second against dist/nearcast (Twilio configured
// with fake credentials and TWILIO_API_BASE pointing nowhere, so every signature is checked) and against a Node
// baseline (Fastify + @fastify/formbody + better-sqlite3 + twilio's validateRequest, bench/baseline-webhooks/),
// driven by the SAME load generator (wrk + bench/webhooks.lua; autocannon only when wrk is missing), pinned with
// taskset (servers on one CPU, wrk on another), warm-up, interleaved rounds, medians, server CPU per request.
//
// Each side starts with the same N deliveries (status Sent, sids SM000..1, SM000..2, ...). Every message gets a
// `sent` callback (a late duplicate: must change nothing) and then `delivered` (moves it forward); no callback is sent
// twice: each slice gets the next unused deliveries, signed by this bench into a pool file wrk reads. Before the run, a
// tampered request must answer 403 on both sides; afterwards both databases are checked: no delivery went
// backwards or is anything but Sent/Delivered, every acknowledged `delivered` stuck, no untouched delivery moved.
//
// A third server, the floor (bench/baseline-webhooks/floor-server.ts: Bun.serve answering 200 without doing anything),
// shows the HTTP floor on the same pinning.
//   npx bun scripts/build.ts && npx bun bench/webhooks.ts [--slice 3] [--rounds 7] [--warmup 3] [--connections 50]
//     [--deliveries 800000] [--pool-rps 60000] [--no-floor] [--generator wrk|autocannon] [--server-cpu 0] [--load-cpu 1]
//     [--no-pin] [--nearcast path/to/executable]
import { Database } from "bun:sqlite";
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createContext } from "../src/context.ts";
import { MemoryLogger } from "../src/lib/logger.ts";
import { ensureInstalled, interleave, machine, medianCpuUs, medianRps, options, placement, privateCopy, runWrk, type Server, type Slice as LoadSlice, startServer, summarize, thousands as f, withServerCpu } from "./lib/harness.ts";

const root = join(import.meta.dir, "..");
const baselineDir = join(import.meta.dir, "baseline-webhooks");
const luaScript = join(import.meta.dir, "webhooks.lua");
const { opt, flag } = options();
const SLICE_SECONDS = Number(opt("slice", "3"));
const ROUNDS = Number(opt("rounds", "7"));
const WARMUP_SECONDS = Number(opt("warmup", "3"));
const CONNECTIONS = Number(opt("connections", "50"));
/** Deliveries seeded per side; two callbacks each. Enough that no slice has to repeat a callback. */
const DELIVERIES = Number(opt("deliveries", "800000"));
/** Callbacks per second a slice's pool allows at least; more (1.5x) when a side's best slice so far came near it. */
const POOL_RPS = Number(opt("pool-rps", "60000"));
const HEADROOM = 1.5;
const FLOOR = !flag("no-floor");
/** Issue 8: signed status callbacks at least 1.2x the baseline. */
const TARGET = 1.2;
const P = placement();
const GENERATOR = P.generator;

const AUTH_TOKEN = "bench-auth-token-0123456789abcdef";
const ACCOUNT_SID = "AC0123456789abcdef0123456789abcdef";
const PUBLIC_URL = "https://bench.example.com";
const PATH = "/api/webhooks/twilio/status";

/** Message sid of delivery i (1-based), as both sides are seeded (and as load.mjs computes it). */
const sidOf = (i: number) => `SM${i.toString(16).padStart(32, "0")}`;

function callbackParams(i: number, status: string): Record<string, string> {
  return { AccountSid: ACCOUNT_SID, ApiVersion: "2010-04-01", From: "+15005550006", MessageSid: sidOf(i), MessageStatus: status, SmsSid: sidOf(i), SmsStatus: status, To: "+14155550100" };
}

/** Twilio's signature: base64 HMAC-SHA1 (auth token) of the full URL followed by every form field, sorted, key + value. */
function sign(url: string, params: Record<string, string>): string {
  let data = url;
  for (const key of Object.keys(params).sort()) data += key + params[key];
  return createHmac("sha1", AUTH_TOKEN).update(data, "utf8").digest("base64");
}

function signed(i: number, status: string): { path: string; signature: string; body: string } {
  const params = callbackParams(i, status);
  const path = `${PATH}?delivery=${i}`;
  return { path, signature: sign(PUBLIC_URL + path, params), body: new URLSearchParams(params).toString() };
}

/** The signer must agree with twilio's own (the baseline's copy of twilio-node). */
async function checkSigner(): Promise<void> {
  const mod = (await import(join(baselineDir, "node_modules", "twilio", "lib", "webhooks", "webhooks.js"))) as {
    getExpectedTwilioSignature(token: string, url: string, params: Record<string, string>): string;
  };
  const ours = signed(123_456, "delivered").signature;
  const theirs = mod.getExpectedTwilioSignature(AUTH_TOKEN, `${PUBLIC_URL}${PATH}?delivery=123456`, callbackParams(123_456, "delivered"));
  if (ours !== theirs) throw new Error(`bench signer disagrees with twilio's getExpectedTwilioSignature (${ours} vs ${theirs})`);
}

/** Writes the pool file for deliveries first..first+count-1: per delivery `sent` then `delivered`, one per line. */
function writePool(file: string, first: number, count: number): void {
  const lines: string[] = [];
  for (let i = first; i < first + count; i++) {
    for (const status of ["sent", "delivered"]) {
      const r = signed(i, status);
      lines.push(`${r.path}\t${r.signature}\t${r.body}`);
    }
  }
  writeFileSync(file, `${lines.join("\n")}\n`);
}

/** A slice, and whether the generator ran past its pool of unused callbacks (and so repeated some). */
interface Slice extends LoadSlice {
  wrapped: boolean;
}

interface Side {
  key: "nearcast" | "baseline" | "floor";
  name: string;
  server: Server;
  /** null for the floor (nothing stored, no signature checked). */
  dbFile: string | null;
  tampered: number;
  /** Next unused delivery id. */
  next: number;
  /** `delivered` callbacks handed out, and a lower bound of those acknowledged (2xx). */
  deliveredSent: number;
  deliveredAcked: number;
  failures: number;
  wraps: number;
  best: number;
  slices: Slice[];
}

/** One slice: the next unused deliveries (pool sized from the side's best rate), wrk or autocannon, server CPU. */
function load(side: Side, seconds: number, work: string, floorPool: string): Slice {
  const rate = Math.max(POOL_RPS, side.best * HEADROOM);
  let count = Math.ceil((rate * seconds) / 2) + CONNECTIONS;
  if (side.dbFile) count = Math.min(count, DELIVERIES + 1 - side.next);
  if (count <= 0) throw new Error(`${side.name}: out of seeded deliveries (raise --deliveries)`);
  const first = side.dbFile ? side.next : 1;
  let pool = floorPool;
  if (side.dbFile && GENERATOR === "wrk") {
    pool = join(work, "pool.tsv");
    writePool(pool, first, count);
  }
  const slice = withServerCpu(side.server.pid, (): Omit<Slice, "cpuUs"> => {
    if (GENERATOR === "wrk") {
      const r = runWrk<{ requests: number; durationUs: number; sent: number; pool: number; ok: number; non2xx: number; errors: number; p50: number; p99: number }>(P, {
        script: luaScript,
        url: side.server.url,
        seconds,
        connections: CONNECTIONS,
        args: [pool],
      });
      return { requests: r.requests, seconds: r.seconds, rps: r.rps, sent: r.sent, ok: r.ok, non2xx: r.non2xx, errors: r.errors, p50: r.p50, p99: r.p99, wrapped: r.sent > r.pool };
    }
    // Fallback: load.mjs signs its own list (twilio's getExpectedTwilioSignature) before it starts.
    const cmd = P.pinned(P.loadCpu, ["node", join(baselineDir, "load.mjs"), side.server.url, String(seconds), String(CONNECTIONS), String(first), String(count), AUTH_TOKEN, PUBLIC_URL]);
    const res = Bun.spawnSync(cmd, { cwd: baselineDir, stdout: "pipe", stderr: "inherit" });
    if (res.exitCode !== 0) throw new Error(`autocannon failed (${res.exitCode})`);
    const r = JSON.parse(res.stdout.toString().trim().split("\n").at(-1)!) as { requests: number; seconds: number; ok: number; non2xx: number; errors: number; timeouts: number; latencyP50: number; latencyP99: number; used: number; wrapped: boolean };
    return { requests: r.requests, seconds: r.seconds, rps: r.requests / r.seconds, sent: r.used, ok: r.ok, non2xx: r.non2xx, errors: r.errors + r.timeouts, p50: r.latencyP50, p99: r.latencyP99, wrapped: r.wrapped };
  });
  if (side.dbFile) {
    const handedOut = Math.min(slice.sent, 2 * count);
    side.next += Math.ceil(handedOut / 2);
    side.deliveredSent += Math.floor(handedOut / 2);
    // Callbacks go out in order; at most CONNECTIONS are in flight when the slice ends.
    side.deliveredAcked += Math.max(0, Math.floor(slice.ok / 2) - CONNECTIONS);
    if (slice.wrapped) side.wraps++;
  }
  side.failures += slice.non2xx + slice.errors;
  side.best = Math.max(side.best, slice.rps);
  return slice;
}

/** A correctly signed callback with one field changed afterwards: must answer 403. */
async function tamperedStatus(url: string): Promise<number> {
  const r = signed(1, "delivered");
  const res = await fetch(url + r.path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "TwilioProxy/1.1", "x-twilio-signature": r.signature },
    body: r.body.replace("MessageStatus=delivered", "MessageStatus=failed"),
  });
  await res.arrayBuffer();
  return res.status;
}

/** SQL that seeds deliveries 1..n as Sent with sid SM + 32 hex digits of the id (sidOf), on Nearcast's schema (both sides). */
function seedSql(n: number): string {
  const seq = `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ${n})`;
  const sid = `'SM' || printf('%032x', i)`;
  const now = Date.now();
  return `
    INSERT INTO users (id, email, first_name, last_name, password_hash) VALUES (1, 'bench@example.com', 'Bench', 'Owner', 'x');
    INSERT OR IGNORE INTO business_types (id, name) VALUES (1, 'Bakery');
    INSERT INTO businesses (id, owner_id, business_type_id, name, address, phone, sample_product_text)
      VALUES (1, 1, 1, 'Bench Bakery', '1 Bench Street', '(415) 555-0100', 'Bread');
    INSERT INTO broadcasts (id, business_id, created_by, message_text, total) VALUES (1, 1, 1, 'Fresh bread', ${n});
    ${seq} INSERT INTO customers (id, phone, created_at)
      SELECT i, '+1415' || printf('%07d', 2000000 + i), ${now} FROM seq;
    ${seq} INSERT INTO deliveries (id, broadcast_id, customer_id, business_id, channel, to_phone, status, attempts,
        next_attempt_at, claimed_at, sent_at, updated_at, provider_id, provider_status)
      SELECT i, 1, i, 1, 'SMS', '+1415' || printf('%07d', 2000000 + i), 'Sent', 1, ${now}, ${now}, ${now}, ${now}, ${sid}, 'queued' FROM seq;`;
}

function newSide(key: Side["key"], name: string, server: Server, dbFile: string | null): Side {
  return { key, name, server, dbFile, tampered: 0, next: 1, deliveredSent: 0, deliveredAcked: 0, failures: 0, wraps: 0, best: 0, slices: [] };
}

/** Seeds the nearcast database and starts the copied binary with Twilio configured (fake credentials). */
async function nearcastSide(work: string): Promise<Side> {
  const bin = privateCopy(opt("nearcast", join(root, "dist", "nearcast")), work);
  const dataDir = join(work, "nearcast-data");
  const ctx = createContext(loadConfig({}, { dataDir }), { logger: new MemoryLogger() });
  const sqlite = ctx.db.$client;
  sqlite.exec(seedSql(DELIVERIES));
  ctx.close();
  const server = await startServer(P.pinned(P.serverCpu, [bin, "serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", dataDir]), {
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    TWILIO_FROM: "+15005550006",
    // Nothing in this run calls Twilio; if something did, it would fail fast rather than leave the machine.
    TWILIO_API_BASE: "http://127.0.0.1:9",
    NEARCAST_PUBLIC_URL: PUBLIC_URL,
  });
  return newSide("nearcast", "nearcast (Bun)", server, join(dataDir, "nearcast.db"));
}

async function baselineSide(work: string): Promise<Side> {
  const file = join(work, "baseline.db");
  // The server creates the tables; seed them after it is up (WAL: the server sees the rows at its next read).
  const server = await startServer(P.pinned(P.serverCpu, ["node", join(baselineDir, "server.mjs"), "0", file, AUTH_TOKEN, PUBLIC_URL]), {});
  const db = new Database(file);
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec(seedSql(DELIVERIES));
  db.close();
  return newSide("baseline", "baseline (Node, Fastify, better-sqlite3)", server, file);
}

async function floorSide(): Promise<Side> {
  const server = await startServer(P.pinned(P.serverCpu, [process.execPath, join(baselineDir, "floor-server.ts"), "0"]), {});
  return newSide("floor", "floor (empty Bun.serve, no work)", server, null);
}

/** Afterwards, per database: only Sent/Delivered; every acknowledged `delivered` stuck; nothing beyond what was sent. */
function check(side: Side): { delivered: number; good: boolean; detail: string } {
  const db = new Database(side.dbFile!, { readonly: true });
  try {
    const n = (sql: string) => (db.query(sql).get() as { n: number }).n;
    const delivered = n("SELECT count(*) AS n FROM deliveries WHERE status = 'Delivered'");
    const other = n("SELECT count(*) AS n FROM deliveries WHERE status NOT IN ('Sent', 'Delivered')");
    const untouched = n(`SELECT count(*) AS n FROM deliveries WHERE id >= ${side.next} AND status <> 'Sent'`);
    const good = other === 0 && untouched === 0 && delivered >= side.deliveredAcked && delivered <= side.deliveredSent && side.failures === 0;
    return {
      delivered,
      good,
      detail:
        `${f(side.deliveredAcked)} <= ${f(delivered)} Delivered <= ${f(side.deliveredSent)} \`delivered\` sent; ` +
        `${other} neither Sent nor Delivered; ${untouched} moved without a callback; ${f(side.failures)} non-2xx/socket errors`,
    };
  } finally {
    db.close();
  }
}

function ensureBaselineInstalled(): void {
  ensureInstalled(baselineDir, ["better-sqlite3", "fastify", "@fastify/formbody", "twilio", ...(GENERATOR === "autocannon" ? ["autocannon"] : [])]);
}

export interface WebhooksBenchResult {
  ratio: number;
  cpuRatio: number;
  ok: boolean;
}

export async function runWebhooksBench(): Promise<WebhooksBenchResult> {
  ensureBaselineInstalled();
  await checkSigner();
  const work = mkdtempSync(join(tmpdir(), "nearcast-bench-webhooks-"));
  const sides: Side[] = [];
  try {
    console.log(`machine: ${machine()}`);
    console.log(
      `generator: ${GENERATOR}${GENERATOR === "wrk" ? " -t1 + bench/webhooks.lua (pre-signed pool per slice)" : ""}, ${CONNECTIONS} connections, loopback; ` +
        P.describe() +
        `; ${WARMUP_SECONDS} s warm-up per side, then ${ROUNDS} rounds of ${SLICE_SECONDS} s per side, interleaved (order alternates); ` +
        `${f(DELIVERIES)} deliveries seeded per side`,
    );
    const floorPool = join(work, "floor-pool.tsv");
    if (FLOOR && GENERATOR === "wrk") writePool(floorPool, 1, 20_000);
    sides.push(await nearcastSide(work), await baselineSide(work));
    if (FLOOR) sides.push(await floorSide());
    const [nearcast, baseline] = sides as [Side, Side];
    const floor = sides[2];
    const load0 = loadavg()[0]!;
    for (const side of sides) {
      if (side.dbFile) side.tampered = await tamperedStatus(side.server.url);
      load(side, WARMUP_SECONDS, work, floorPool);
    }
    const pairRatios: number[] = [];
    interleave(sides, ROUNDS, (side) => side.slices.push(load(side, SLICE_SECONDS, work, floorPool)), (round) => {
      const n = nearcast.slices.at(-1)!;
      const b = baseline.slices.at(-1)!;
      const fl = floor?.slices.at(-1);
      pairRatios.push(n.rps / b.rps);
      console.log(
        `  round ${round + 1}: nearcast ${f(n.rps).padStart(7)} req/s (${n.cpuUs.toFixed(1)} µs CPU/req), ` +
          `baseline ${f(b.rps).padStart(7)} req/s (${b.cpuUs.toFixed(1)} µs CPU/req), ratio ${(n.rps / b.rps).toFixed(2)}x` +
          (fl ? `; floor ${f(fl.rps)} req/s (${fl.cpuUs.toFixed(1)} µs)` : ""),
      );
    });
    const load1 = loadavg()[0]!;
    for (const side of sides) await side.server.stop();
    const stopped = sides.splice(0);

    const { ratio, cpuRatio } = summarize(stopped, nearcast, baseline, pairRatios, TARGET);
    if (floor) console.log(`floor (empty Bun.serve): ${f(medianRps(floor))} req/s = ${(medianRps(floor) / medianRps(baseline)).toFixed(2)}x the baseline, ${medianCpuUs(floor).toFixed(1)} µs CPU/req`);
    console.log(`load average (1 min) before/after: ${load0.toFixed(2)} / ${load1.toFixed(2)}`);

    let sound = true;
    console.log("");
    for (const s of [nearcast, baseline]) {
      const c = check(s);
      const tamperOk = s.tampered === 403;
      const noWrap = s.wraps === 0;
      console.log(
        `${s.name}: tampered -> ${s.tampered}; ${c.detail}${noWrap ? "" : `; ${s.wraps} slice(s) ran past their pool (raise --pool-rps)`} -> ` +
          (c.good && tamperOk && noWrap ? "OK" : "FAILED"),
      );
      sound &&= c.good && tamperOk && noWrap;
    }
    console.log(`signatures checked (tampered -> 403), every callback 2xx, no status moved backwards: ${sound ? "yes" : "NO"}`);
    return { ratio, cpuRatio, ok: sound };
  } finally {
    for (const side of sides) await side.server.stop().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  // Fail early and clearly: the Lua script is part of the bench.
  readFileSync(luaScript);
  const { ok } = await runWebhooksBench();
  if (!ok) process.exit(1);
}
