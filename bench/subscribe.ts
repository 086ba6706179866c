// Subscribe throughput: POST /api/subscription/Subscribe of dist/nearcast against a Node baseline (Fastify +
// better-sqlite3, bench/baseline-subscribe/), driven by the SAME load generator (wrk + bench/subscribe.lua; autocannon
// only when wrk is missing), interleaved slices, medians and the ratio. Afterwards every acknowledged (2xx)
// subscription must be a row in that side's database.
//   npx bun scripts/build.ts && npx bun bench/subscribe.ts [--slice 3] [--rounds 7] [--warmup 3] [--connections 50]
//     [--generator wrk|autocannon] [--server-cpu 0] [--load-cpu 1] [--no-pin] [--nearcast path/to/executable]
import { Database } from "bun:sqlite";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createContext } from "../src/context.ts";
import { businesses, businessTypes, users } from "../src/db/schema.ts";
import { MemoryLogger } from "../src/lib/logger.ts";

const root = join(import.meta.dir, "..");
const baselineDir = join(import.meta.dir, "baseline-subscribe");
const luaScript = join(import.meta.dir, "subscribe.lua");
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const opt = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const SLICE_SECONDS = Number(opt("slice", "3"));
const ROUNDS = Number(opt("rounds", "7"));
const WARMUP_SECONDS = Number(opt("warmup", "3"));
const CONNECTIONS = Number(opt("connections", "50"));
const TARGET = 3.5;

const WRK = Bun.which("wrk");
const GENERATOR = opt("generator", WRK ? "wrk" : "autocannon") as "wrk" | "autocannon";
const TASKSET = Bun.which("taskset");
// Pinning: the server under load on one core, the generator on another, so they do not take turns on one core.
const PIN = !flag("no-pin") && TASKSET !== null && availableParallelism() >= 2;
const SERVER_CPU = opt("server-cpu", "0");
const LOAD_CPU = opt("load-cpu", "1");
const pinned = (cpu: string, cmd: string[]) => (PIN ? [TASKSET!, "-c", cpu, ...cmd] : cmd);

/** One load run against one side. */
export interface Slice {
  requests: number;
  seconds: number;
  rps: number;
  /** Requests the generator built (each with a new phone number): an upper bound on the rows it can have caused. */
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
  /** Server CPU time (user + system, from /proc) per answered request, in µs; NaN where /proc is missing. */
  cpuUs: number;
}

interface Side {
  key: "nearcast" | "baseline";
  name: string;
  url: string;
  businessId: number;
  token: string;
  dbFile: string;
  nextPhone: number;
  slices: Slice[];
  acknowledged: number;
  sent: number;
  failures: number;
  pid: number;
  stop(): Promise<void>;
}

/** Starts a server process and resolves with its URL once it logs "listening on http://...". */
async function start(cmd: string[], env: Record<string, string>): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
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
    // taskset execs the server, so this is the server's own pid.
    pid: proc.pid,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** CPU seconds (user + system) a process has used so far, or NaN without /proc. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after "(comm) ".
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** The XSRF cookie the server hands out, sent back as cookie AND header (the double submit). */
async function xsrfToken(url: string): Promise<string> {
  const res = await fetch(`${url}/api/health`);
  await res.arrayBuffer();
  const token = /XSRF-TOKEN=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  if (!token) throw new Error(`no XSRF-TOKEN cookie from ${url}/api/health`);
  return token;
}

const PHONE_STRIDE = 1_000_000;

/** One slice of load with the chosen generator; phone numbers continue where the side's last slice stopped. */
function load(side: Side, seconds: number): Slice {
  let slice: Omit<Slice, "cpuUs">;
  const cpu0 = cpuSeconds(side.pid);
  if (GENERATOR === "wrk") {
    const cmd = pinned(LOAD_CPU, [
      WRK!, "-t1", `-c${CONNECTIONS}`, `-d${seconds}s`, "--timeout", "5s", "-s", luaScript, side.url,
      "--", String(side.businessId), side.token, String(side.nextPhone), String(PHONE_STRIDE),
    ]);
    const res = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
    const line = res.stdout.toString().trim().split("\n").findLast((l) => l.startsWith("{"));
    if (res.exitCode !== 0 || !line) throw new Error(`wrk failed (${res.exitCode}):\n${res.stdout}\n${res.stderr}`);
    const r = JSON.parse(line) as { requests: number; durationUs: number; sent: number; ok: number; non2xx: number; errors: number; p50: number; p99: number };
    const secs = r.durationUs / 1e6;
    slice = { requests: r.requests, seconds: secs, rps: r.requests / secs, sent: r.sent, ok: r.ok, non2xx: r.non2xx, errors: r.errors, p50: r.p50, p99: r.p99 };
  } else {
    const cmd = pinned(LOAD_CPU, ["node", join(baselineDir, "load.mjs"), side.url, String(side.businessId), String(seconds), String(CONNECTIONS), String(side.nextPhone)]);
    const res = Bun.spawnSync(cmd, { cwd: baselineDir, stdout: "pipe", stderr: "inherit" });
    if (res.exitCode !== 0) throw new Error(`autocannon failed (${res.exitCode})`);
    const r = JSON.parse(res.stdout.toString().trim().split("\n").at(-1)!) as { requests: number; ok: number; non2xx: number; errors: number; timeouts: number; latencyP50: number; latencyP99: number; phonesUsed: number };
    slice = { requests: r.requests, seconds, rps: r.requests / seconds, sent: r.phonesUsed, ok: r.ok, non2xx: r.non2xx, errors: r.errors + r.timeouts, p50: r.latencyP50, p99: r.latencyP99 };
  }
  const cpuUs = ((cpuSeconds(side.pid) - cpu0) * 1e6) / slice.requests;
  side.nextPhone += slice.sent;
  side.acknowledged += slice.ok;
  side.sent += slice.sent;
  side.failures += slice.non2xx + slice.errors;
  return { ...slice, cpuUs };
}

function count(file: string, sql: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.query(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function startNearcast(work: string): Promise<Side> {
  const built = opt("nearcast", join(root, "dist", "nearcast"));
  if (!existsSync(built)) throw new Error(`${built} is missing: build it first (npx bun scripts/build.ts)`);
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
  const server = await start(pinned(SERVER_CPU, [bin, "serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", dataDir]), {
    NEARCAST_SUBSCRIBE_LIMIT: "0",
  });
  return newSide("nearcast", "nearcast (Bun)", server, business.id, join(dataDir, "nearcast.db"));
}

async function startBaseline(work: string): Promise<Side> {
  const file = join(work, "baseline.db");
  const server = await start(pinned(SERVER_CPU, ["node", join(baselineDir, "server.mjs"), "0", file]), {});
  return newSide("baseline", "baseline (Node, Fastify, better-sqlite3)", server, 1, file);
}

async function newSide(key: Side["key"], name: string, server: { url: string; pid: number; stop(): Promise<void> }, businessId: number, dbFile: string): Promise<Side> {
  const token = await xsrfToken(server.url);
  return { key, name, url: server.url, businessId, token, dbFile, nextPhone: 0, slices: [], acknowledged: 0, sent: 0, failures: 0, pid: server.pid, stop: server.stop };
}

function ensureBaselineInstalled(): void {
  const need = ["fastify", "better-sqlite3", "libphonenumber-js", ...(GENERATOR === "autocannon" ? ["autocannon"] : [])];
  if (need.every((m) => existsSync(join(baselineDir, "node_modules", m)))) return;
  console.log("Installing the baseline's pinned dependencies (npm ci in bench/baseline-subscribe)...");
  const res = Bun.spawnSync(["npm", "ci", "--no-audit", "--no-fund"], { cwd: baselineDir, stdout: "inherit", stderr: "inherit" });
  if (res.exitCode !== 0) throw new Error(`npm ci in bench/baseline-subscribe failed (${res.exitCode})`);
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function machine(): string {
  const model = cpus()[0]?.model ?? "unknown CPU";
  let wrkVersion = "";
  if (WRK) wrkVersion = Bun.spawnSync([WRK, "--version"]).stdout.toString().split("\n")[0]?.split(" [")[0] ?? "";
  const node = Bun.spawnSync(["node", "--version"]).stdout.toString().trim();
  return `${availableParallelism()} x ${model}; bun ${Bun.version}, node ${node}${wrkVersion ? `, ${wrkVersion}` : ""}`;
}

export interface SubscribeBenchResult {
  nearcast: Side;
  baseline: Side;
  ratio: number;
  ok: boolean;
}

export async function runSubscribeBench(): Promise<SubscribeBenchResult> {
  if (GENERATOR === "wrk" && !WRK) throw new Error("wrk is not installed: apt-get install -y wrk (Debian/Ubuntu), brew install wrk (macOS)");
  if (GENERATOR === "autocannon") {
    console.log(
      "NOTE: wrk not found, falling back to autocannon (a Node process that needs about a core of its own; on a small " +
        "box it competes with the servers). Install wrk for fair numbers: apt-get install -y wrk (Debian/Ubuntu), brew install wrk (macOS).",
    );
  }
  ensureBaselineInstalled();
  const work = mkdtempSync(join(tmpdir(), "nearcast-bench-subscribe-"));
  const sides: Side[] = [];
  try {
    console.log(`machine: ${machine()}`);
    console.log(
      `generator: ${GENERATOR}${GENERATOR === "wrk" ? " -t1 + bench/subscribe.lua" : ""}, ${CONNECTIONS} connections, loopback; ` +
        (PIN ? `servers pinned to CPU ${SERVER_CPU}, generator to CPU ${LOAD_CPU} (taskset)` : "no CPU pinning") +
        `; ${WARMUP_SECONDS} s warm-up per side, then ${ROUNDS} rounds of ${SLICE_SECONDS} s per side, interleaved (order alternates)`,
    );
    const load0 = loadavg()[0]!;
    sides.push(await startNearcast(work), await startBaseline(work));
    const [nearcast, baseline] = sides as [Side, Side];
    for (const side of sides) load(side, WARMUP_SECONDS);
    const pairRatios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [nearcast, baseline] : [baseline, nearcast];
      for (const side of order) side.slices.push(load(side, SLICE_SECONDS));
      const n = nearcast.slices.at(-1)!;
      const b = baseline.slices.at(-1)!;
      pairRatios.push(n.rps / b.rps);
      console.log(
        `  round ${round + 1}: nearcast ${Math.round(n.rps).toLocaleString("en-US").padStart(7)} req/s (${n.cpuUs.toFixed(1)} µs CPU/req), ` +
          `baseline ${Math.round(b.rps).toLocaleString("en-US").padStart(7)} req/s (${b.cpuUs.toFixed(1)} µs CPU/req), ratio ${(n.rps / b.rps).toFixed(2)}x`,
      );
    }
    const load1 = loadavg()[0]!;
    for (const side of sides) await side.stop();
    sides.length = 0;

    const f = (x: number) => Math.round(x).toLocaleString("en-US");
    const medRps = (s: Side) => median(s.slices.map((x) => x.rps));
    const medCpu = (s: Side) => median(s.slices.map((x) => x.cpuUs));
    const ratio = medRps(nearcast) / medRps(baseline);
    console.log("");
    console.log(
      `${"".padEnd(42)} ${"median req/s".padStart(12)} ${"min–max req/s".padStart(17)} ${"µs CPU/req".padStart(10)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)}`,
    );
    for (const s of [nearcast, baseline]) {
      const rps = s.slices.map((x) => x.rps);
      console.log(
        `${s.name.padEnd(42)} ${f(medRps(s)).padStart(12)} ${`${f(Math.min(...rps))}–${f(Math.max(...rps))}`.padStart(17)} ` +
          `${medCpu(s).toFixed(1).padStart(10)} ` +
          `${median(s.slices.map((x) => x.p50)).toFixed(2).padStart(7)} ${median(s.slices.map((x) => x.p99)).toFixed(2).padStart(7)}`,
      );
    }
    console.log("");
    console.log(
      `ratio of medians nearcast / baseline: ${ratio.toFixed(2)}x (target >= ${TARGET}x) ${ratio >= TARGET ? "OK" : "BELOW TARGET"}; ` +
        `per-round ratios: median ${median(pairRatios).toFixed(2)}x, ${Math.min(...pairRatios).toFixed(2)}–${Math.max(...pairRatios).toFixed(2)}x`,
    );
    console.log(
      `server CPU per request, baseline / nearcast: ${(medCpu(baseline) / medCpu(nearcast)).toFixed(2)}x ` +
        "(the throughput ratio a CPU-bound server on an otherwise idle core would reach; less sensitive to other load)",
    );
    console.log(`load average (1 min) before/after: ${load0.toFixed(2)} / ${load1.toFixed(2)}`);

    // Verification: every 2xx is a row; no row without a request (rows <= requests built); nothing failed.
    let complete = true;
    console.log("");
    for (const s of [nearcast, baseline]) {
      const rows = count(s.dbFile, "SELECT count(*) AS n FROM subscriptions");
      const good = s.acknowledged <= rows && rows <= s.sent && s.failures === 0;
      console.log(
        `${s.name}: ${f(s.acknowledged)} acknowledged (2xx, incl. warm-up), ${f(rows)} subscription rows, ${f(s.sent)} requests sent, ` +
          `${f(s.failures)} non-2xx/socket errors -> ${good ? "every acknowledged subscription stored" : "MISMATCH"}`,
      );
      complete &&= good;
    }
    // Nearcast keeps one customer per phone and one consent event per new subscription: all phones here are new.
    const customers = count(nearcast.dbFile, "SELECT count(*) AS n FROM customers");
    const events = count(nearcast.dbFile, "SELECT count(*) AS n FROM consent_events WHERE kind = 'subscribed'");
    const subs = count(nearcast.dbFile, "SELECT count(*) AS n FROM subscriptions");
    const consistent = customers === subs && events === subs;
    console.log(`nearcast: ${f(customers)} customers, ${f(events)} consent events for ${f(subs)} subscriptions -> ${consistent ? "consistent" : "INCONSISTENT"}`);
    complete &&= consistent;
    return { nearcast, baseline, ratio, ok: complete };
  } finally {
    for (const side of sides) await side.stop().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  // Fail early and clearly: the Lua script is part of the bench.
  readFileSync(luaScript);
  const { ok } = await runSubscribeBench();
  if (!ok) process.exit(1);
}
