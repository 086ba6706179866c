// Status-callback throughput: signed Twilio status callbacks per second against dist/nearcast (Twilio configured
// with fake credentials and TWILIO_API_BASE pointing nowhere, so every signature is checked) and against a Node
// baseline (Fastify + @fastify/formbody + better-sqlite3 + twilio's validateRequest, bench/baseline-webhooks/),
// same load generator (autocannon), side by side, loopback only, bounded duration.
//
// Each side starts with the same N deliveries (status Sent, sids SM000..1, SM000..2, ...). Every message gets a
// `sent` callback (a late duplicate: must change nothing) and then `delivered` (moves it forward). Before the run, a
// tampered request must answer 403 on both sides; afterwards both databases are checked: no delivery went
// backwards, and the deliveries that got `delivered` acknowledged are Delivered.
//
// A third server, the floor (bench/baseline-webhooks/floor-server.ts: Bun.serve answering 200 without doing anything),
// shows what the load generator can drive at most on this machine.
// The servers run at once and are loaded in turns (--rounds slices of seconds/rounds each, the order alternating),
// so a busy machine slows both sides alike; req/s = all requests of a side / its measured seconds.
//   npx bun scripts/build.ts && npx bun bench/webhooks.ts [--seconds 10] [--rounds 4] [--connections 50]
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { loadConfig } from "../src/config.ts";
import { createContext } from "../src/context.ts";
import { MemoryLogger } from "../src/lib/logger.ts";

const root = join(import.meta.dir, "..");
const baselineDir = join(import.meta.dir, "baseline-webhooks");
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg("seconds", 10);
const CONNECTIONS = arg("connections", 50);
const WARMUP_SECONDS = 2;
/** Deliveries seeded per side; two callbacks each. Enough that the measured run does not run out. */
const DELIVERIES = arg("deliveries", 300_000);
const ROUNDS = Math.max(1, Math.round(arg("rounds", 4)));
const SLICE_SECONDS = SECONDS / ROUNDS;
const WARMUP_DELIVERIES = 60_000;
/** Deliveries set aside for one slice of one side (two callbacks each). */
const SLICE_DELIVERIES = Math.floor((DELIVERIES - WARMUP_DELIVERIES) / ROUNDS);
const TARGET = 1.5;

const AUTH_TOKEN = "bench-auth-token-0123456789abcdef";
const ACCOUNT_SID = "AC0123456789abcdef0123456789abcdef";
const PUBLIC_URL = "https://bench.example.com";

export interface WebhookSideResult {
  name: string;
  /** Requests per second over all measured slices. */
  rps: number;
  /** Requests per second of each slice. */
  rounds: number[];
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  latencyP50: number;
  latencyP99: number;
  tamperedStatus: number;
  /** Server CPU time per request (user + system, from /proc), the load generator's excluded; null off Linux. */
  cpuMicrosPerRequest: number | null;
  delivered: number;
  backwards: number;
}

/** utime + stime of a process in seconds (Linux /proc; 100 ticks per second), null when unavailable. */
function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

function sh(cmd: string[], cwd: string): void {
  const res = Bun.spawnSync(cmd, { cwd, stdout: "inherit", stderr: "inherit" });
  if (res.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (${res.exitCode})`);
}

/** Starts a server process and resolves with its URL once it logs "listening on http://...". */
async function start(cmd: string[], env: Record<string, string>): Promise<{ url: string; proc: Subprocess; stop(): Promise<void> }> {
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
          resolve(m[1].replace("localhost", "127.0.0.1").replace(/\/+$/, ""));
          return;
        }
      }
      reject(new Error(`server exited:\n${log}`));
    })();
  });
  return {
    url,
    proc,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

interface LoadResult {
  requests: number;
  /** As measured by autocannon. */
  seconds: number;
  rps: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latencyP50: number;
  latencyP99: number;
  used: number;
  wrapped: boolean;
}

function node(args: string[]): string {
  const res = Bun.spawnSync(["node", join(baselineDir, "load.mjs"), ...args], { cwd: baselineDir, stdout: "pipe", stderr: "inherit" });
  if (res.exitCode !== 0) throw new Error(`load generator failed (${res.exitCode})`);
  return res.stdout.toString().trim().split("\n").at(-1)!;
}

function load(url: string, seconds: number, first: number, count: number): LoadResult {
  return JSON.parse(node([url, String(seconds), String(CONNECTIONS), String(first), String(count), AUTH_TOKEN, PUBLIC_URL])) as LoadResult;
}

function tamperedStatus(url: string): number {
  return (JSON.parse(node([url, "0", "1", "1", "1", AUTH_TOKEN, PUBLIC_URL, "--check"])) as { status: number }).status;
}

/** SQL that seeds deliveries 1..n as Sent with sid SM + 32 hex digits of the id (the load generator's sidOf). */
function seedSql(n: number, columns: "nearcast" | "baseline"): string {
  const seq = `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ${n})`;
  const sid = `'SM' || printf('%032x', i)`;
  const now = Date.now();
  if (columns === "baseline") {
    return `${seq} INSERT INTO deliveries (id, provider_id, status, provider_status, sent_at, updated_at)
      SELECT i, ${sid}, 'Sent', 'queued', ${now}, ${now} FROM seq`;
  }
  return `
    ${seq} INSERT INTO customers (id, phone, contact_preference, created_at)
      SELECT i, '+1415' || printf('%07d', 2000000 + i), 'SMS', ${now} FROM seq;
    ${seq} INSERT INTO deliveries (id, broadcast_id, customer_id, business_id, channel, to_phone, status, attempts,
        next_attempt_at, claimed_at, sent_at, updated_at, provider_id, provider_status)
      SELECT i, 1, i, 1, 'SMS', '+1415' || printf('%07d', 2000000 + i), 'Sent', 1, ${now}, ${now}, ${now}, ${now}, ${sid}, 'queued' FROM seq;`;
}

function check(file: string, deliveredAcked: number): { delivered: number; backwards: number } {
  const db = new Database(file, { readonly: true });
  try {
    const n = (sql: string) => (db.query(sql).get() as { n: number }).n;
    return {
      delivered: n("SELECT count(*) AS n FROM deliveries WHERE status = 'Delivered'"),
      // Nothing may be anything but Sent or Delivered, and every `delivered` acknowledged must have stuck.
      backwards: n("SELECT count(*) AS n FROM deliveries WHERE status NOT IN ('Sent', 'Delivered')") + Math.max(0, deliveredAcked - n("SELECT count(*) AS n FROM deliveries WHERE status = 'Delivered'")),
    };
  } finally {
    db.close();
  }
}

interface Side {
  name: string;
  server: { url: string; proc: Subprocess; stop(): Promise<void> };
  /** Server CPU seconds (user + system) spent during the measured slices; null where /proc is not available. */
  cpuSeconds: number | null;
  /** null for the floor (nothing stored, no signature checked). */
  dbFile: string | null;
  tampered: number;
  runs: LoadResult[];
  warm?: LoadResult;
}

/** Seeds the nearcast database and starts the copied binary with Twilio configured (fake credentials). */
async function nearcastSide(work: string): Promise<Side> {
  const built = join(root, "dist", "nearcast");
  if (!existsSync(built)) throw new Error("dist/nearcast is missing: build it first (npx bun scripts/build.ts)");
  // A private copy: a rebuild in the checkout during the run must not swap the binary under us.
  const bin = join(work, "nearcast");
  copyFileSync(built, bin);
  Bun.spawnSync(["chmod", "+x", bin]);
  const dataDir = join(work, "nearcast-data");
  const ctx = createContext(loadConfig({}, { dataDir }), { logger: new MemoryLogger() });
  const sqlite = ctx.db.$client;
  sqlite.exec(`
    INSERT INTO users (id, email, first_name, last_name, password_hash) VALUES (1, 'bench@example.com', 'Bench', 'Owner', 'x');
    INSERT INTO business_types (id, name) VALUES (1, 'Bakery');
    INSERT INTO businesses (id, owner_id, business_type_id, name, address, phone, sample_product_text)
      VALUES (1, 1, 1, 'Bench Bakery', '1 Bench Street', '(415) 555-0100', 'Bread');
    INSERT INTO broadcasts (id, business_id, created_by, message_text, total) VALUES (1, 1, 1, 'Fresh bread', ${DELIVERIES});`);
  sqlite.exec(seedSql(DELIVERIES, "nearcast"));
  ctx.close();
  const server = await start([bin, "serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", dataDir], {
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    TWILIO_FROM: "+15005550006",
    // Nothing in this run calls Twilio; if something did, it would fail fast rather than leave the machine.
    TWILIO_API_BASE: "http://127.0.0.1:9",
    NEARCAST_PUBLIC_URL: PUBLIC_URL,
  });
  return { name: "nearcast (Bun, Hono, drizzle)", server, dbFile: join(dataDir, "nearcast.db"), tampered: 0, runs: [], cpuSeconds: 0 };
}

async function baselineSide(work: string): Promise<Side> {
  const file = join(work, "baseline.db");
  // The server creates the table; seed it after it is up (WAL: the server sees the rows at its next read).
  const server = await start(["node", join(baselineDir, "server.mjs"), "0", file, AUTH_TOKEN, PUBLIC_URL], {});
  const db = new Database(file);
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec(seedSql(DELIVERIES, "baseline"));
  db.close();
  return { name: "baseline (Node, Fastify, better-sqlite3)", server, dbFile: file, tampered: 0, runs: [], cpuSeconds: 0 };
}

async function floorSide(): Promise<Side> {
  const server = await start([process.execPath, join(baselineDir, "floor-server.ts"), "0"], {});
  return { name: "floor (empty Bun server, no work)", server, dbFile: null, tampered: 0, runs: [], cpuSeconds: 0 };
}

/** Tamper check and warm-up per side, then ROUNDS alternating slices; then the servers stop and the databases are checked. */
async function measure(sides: Side[]): Promise<WebhookSideResult[]> {
  for (const side of sides) {
    if (side.dbFile) side.tampered = tamperedStatus(side.server.url);
    side.warm = load(side.server.url, WARMUP_SECONDS, 1, WARMUP_DELIVERIES);
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const first = WARMUP_DELIVERIES + 1 + round * SLICE_DELIVERIES;
      // The generator signs its slice before it starts, so the server is idle until the measured seconds begin.
      const before = cpuSecondsOf(side.server.proc.pid);
      side.runs.push(load(side.server.url, SLICE_SECONDS, first, SLICE_DELIVERIES));
      const after = cpuSecondsOf(side.server.proc.pid);
      side.cpuSeconds = side.cpuSeconds === null || before === null || after === null ? null : side.cpuSeconds + (after - before);
    }
  }
  const results: WebhookSideResult[] = [];
  for (const side of sides) {
    await side.server.stop();
    const all = [side.warm!, ...side.runs];
    if (all.some((r) => r.wrapped)) console.warn(`${side.name}: a slice ran out of seeded deliveries (raise --deliveries): its later callbacks were duplicates`);
    // Each delivery's `delivered` is the second of its pair: at least floor(ok/2) minus what was in flight at the end.
    const acked = all.reduce((n, r) => n + Math.max(0, Math.floor(r.ok / 2) - CONNECTIONS), 0);
    const { delivered, backwards } = side.dbFile ? check(side.dbFile, acked) : { delivered: 0, backwards: 0 };
    const sum = (f: (r: LoadResult) => number) => side.runs.reduce((n, r) => n + f(r), 0);
    const requests = sum((r) => r.requests);
    results.push({
      name: side.name,
      rps: requests / sum((r) => r.seconds),
      rounds: side.runs.map((r) => r.requests / r.seconds),
      requests,
      ok: sum((r) => r.ok),
      non2xx: all.reduce((n, r) => n + r.non2xx, 0),
      errors: all.reduce((n, r) => n + r.errors + r.timeouts, 0),
      latencyP50: Math.max(...side.runs.map((r) => r.latencyP50)),
      latencyP99: Math.max(...side.runs.map((r) => r.latencyP99)),
      tamperedStatus: side.tampered,
      cpuMicrosPerRequest: side.cpuSeconds === null ? null : (side.cpuSeconds * 1e6) / requests,
      delivered,
      backwards,
    });
  }
  return results;
}

function ensureBaselineInstalled(): void {
  const need = ["autocannon", "better-sqlite3", "fastify", "@fastify/formbody", "twilio"];
  if (need.every((m) => existsSync(join(baselineDir, "node_modules", m)))) return;
  console.log("Installing the baseline's pinned dependencies (npm ci in bench/baseline-webhooks)...");
  sh(["npm", "ci", "--no-audit", "--no-fund"], baselineDir);
}

export async function runWebhooksBench(): Promise<{ nearcast: WebhookSideResult; baseline: WebhookSideResult; floor: WebhookSideResult; ratio: number; ok: boolean }> {
  ensureBaselineInstalled();
  const work = mkdtempSync(join(tmpdir(), "nearcast-bench-webhooks-"));
  try {
    console.log(
      `Status-callback benchmark: signed callbacks, ${SECONDS} s per side in ${ROUNDS} alternating slices after a ${WARMUP_SECONDS} s warm-up, ${CONNECTIONS} connections, loopback, ${DELIVERIES.toLocaleString("en-US")} deliveries seeded per side.`,
    );
    const sides: Side[] = [];
    let results: WebhookSideResult[];
    try {
      sides.push(await nearcastSide(work));
      sides.push(await baselineSide(work));
      sides.push(await floorSide());
      results = await measure(sides);
    } catch (err) {
      for (const side of sides) await side.server.stop();
      throw err;
    }
    const [nearcast, baseline, floor] = results as [WebhookSideResult, WebhookSideResult, WebhookSideResult];
    const ratio = nearcast.rps / baseline.rps;
    const f = (n: number) => Math.round(n).toLocaleString("en-US");
    console.log("");
    for (const s of [nearcast, baseline, floor]) console.log(`${s.name.padEnd(42)} req/s per slice: ${s.rounds.map(f).join(", ")}`);
    console.log("");
    console.log(
      `${"".padEnd(42)} ${"req/s".padStart(9)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"2xx".padStart(9)} ${"non-2xx".padStart(8)} ${"tampered".padStart(9)} ${"delivered".padStart(10)}`,
    );
    for (const s of [nearcast, baseline]) {
      console.log(
        `${s.name.padEnd(42)} ${f(s.rps).padStart(9)} ${String(s.latencyP50).padStart(7)} ${String(s.latencyP99).padStart(7)} ${f(s.ok).padStart(9)} ${f(s.non2xx + s.errors).padStart(8)} ${String(s.tamperedStatus).padStart(9)} ${f(s.delivered).padStart(10)}`,
      );
    }
    const [nc, bc] = [nearcast.cpuMicrosPerRequest, baseline.cpuMicrosPerRequest];
    if (nc !== null && bc !== null) {
      console.log("");
      const fc = floor.cpuMicrosPerRequest;
      console.log(
        `server CPU per request (generator excluded): nearcast ${nc.toFixed(1)} us, baseline ${bc.toFixed(1)} us (baseline / nearcast ${(bc / nc).toFixed(2)}x)${fc === null ? "" : `, floor ${fc.toFixed(1)} us`}`,
      );
    }
    console.log(
      `floor (empty Bun server): ${f(floor.rps)} req/s = ${(floor.rps / baseline.rps).toFixed(2)}x the baseline: the most any server can show with this generator here`,
    );
    const sound = [nearcast, baseline].every((s) => s.tamperedStatus === 403 && s.non2xx + s.errors === 0 && s.backwards === 0);
    console.log("");
    console.log(`ratio nearcast / baseline: ${ratio.toFixed(2)}x (target >= ${TARGET}x) ${ratio >= TARGET ? "OK" : "BELOW TARGET"}`);
    console.log(`signatures checked (tampered -> 403), no errors, no status moved backwards: ${sound ? "yes" : "NO"}`);
    return { nearcast, baseline, floor, ratio, ok: sound };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { ok } = await runWebhooksBench();
  if (!ok) process.exit(1);
}
