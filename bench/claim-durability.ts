// What the durable claim costs (issue 10, item 5): the dispatcher's claim commits with synchronous=FULL (an fsync of
// the WAL before the provider is called) instead of NORMAL. Side by side in the same run, at 1, 10 and 100 messages
// per second, on this machine's disk (a data dir under the OS temp dir):
//   - FULL:   the deliveries repo's claim() as the dispatcher calls it (one row per claim when paced), then the
//             answer recorded (recordSent, NORMAL), paced to the rate with real sleeps;
//   - NORMAL: the very same code with the FULL pragma turned into NORMAL (the build before this change).
// Per side and rate: claim latency (median, p99), CPU time per message (claim + record, from process.cpuUsage), and
// fsyncs per second of the WAL (a separate short pass of each under `strace -f -c`, when strace is installed). The
// ratios FULL/NORMAL are printed. Rounds alternate FULL and NORMAL so a busy machine weighs on both alike.
//
//   npx bun bench/claim-durability.ts [--seconds 6] [--rounds 2]
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createContext } from "../src/context.ts";
import { MemoryLogger } from "../src/lib/logger.ts";
import { OPERATOR } from "../src/services/principal.ts";
import { insertBusiness, insertUser } from "../test/helpers/factories.ts";

type Side = "FULL" | "NORMAL";
const RATES = [1, 10, 100] as const;
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const SECONDS = Math.max(2, option("seconds", 6));
const ROUNDS = Math.max(1, option("rounds", 2));
const CHILD = args.includes("--child"); // a counting pass, run under strace by the parent

/** A data dir with one business, `n` subscribers and a broadcast to them queued. */
async function world(n: number) {
  const dir = mkdtempSync(join(tmpdir(), "nearcast-claim-bench-"));
  const ctx = createContext(loadConfig({}, { dataDir: dir }), { logger: new MemoryLogger() });
  const sqlite = ctx.db.$client;
  const now = Date.now();
  const owner = insertUser(ctx, { email: "bench@example.com" });
  const business = insertBusiness(ctx, { ownerId: owner.id, name: "Bench Bakery" });
  sqlite.transaction(() => {
    const customer = sqlite.prepare("INSERT INTO customers (phone, contact_preference, created_at) VALUES (?1, 'SMS', ?2) RETURNING id");
    const sub = sqlite.prepare(
      "INSERT INTO subscriptions (customer_id, business_id, status, source, consent_at, consent_text, created_at) VALUES (?1, ?2, 'active', 'qr', ?3, 'bench', ?3)",
    );
    for (let i = 0; i < n; i++) sub.run((customer.get(`+1415${String(6000000 + i)}`, now) as { id: number }).id, business.id, now);
  })();
  const published = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(business.id), messageText: "Bench: 2 for 1 today" });
  if (!("broadcastId" in published)) throw new Error("nothing queued");
  return { dir, ctx };
}

/** The NORMAL side: the same claim() with its FULL pragma made a NORMAL one (what every claim did before). */
function asNormal(ctx: Awaited<ReturnType<typeof world>>["ctx"]): void {
  const sqlite = ctx.db.$client;
  const exec = sqlite.exec.bind(sqlite);
  sqlite.exec = ((sql: string, ...rest: unknown[]) =>
    exec(sql === "PRAGMA synchronous = FULL" ? "PRAGMA synchronous = NORMAL" : sql, ...(rest as []))) as typeof sqlite.exec;
}

interface Result {
  side: Side;
  rate: number;
  messages: number;
  claimMs: number[];
  cpuUs: number;
}

/** Sends `rate` messages a second for `seconds`: claim one row, "send" (nothing), record the answer. */
async function run(side: Side, rate: number, seconds: number): Promise<Result> {
  const n = Math.ceil(rate * seconds) + 1; // seconds = 0: set up and close only (the strace pass's baseline)
  const { dir, ctx } = await world(n);
  if (side === "NORMAL") asNormal(ctx);
  const repo = ctx.repos.deliveries;
  const claimMs: number[] = [];
  const interval = 1000 / rate;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let sent = 0;
  try {
    for (let i = 0; i < n - 1; i++) {
      const due = t0 + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      const a = performance.now();
      const [row] = repo.claim(Date.now(), 1);
      claimMs.push(performance.now() - a);
      if (!row) break;
      repo.recordSent(row.id, `SM${row.id}`, "Queued", "queued", Date.now());
      sent++;
    }
    const cpu = process.cpuUsage(cpu0);
    return { side, rate, messages: sent, claimMs, cpuUs: (cpu.user + cpu.system) / Math.max(1, sent) };
  } finally {
    ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const median = (xs: number[]) => pct(xs, 50);

/** fsync + fdatasync calls per second of one side at one rate, counted by strace -c in a child process; the calls
 * of a pass that sends nothing (creating the data dir, migrations, closing) are subtracted. */
function fsyncsPerSecond(side: Side, rate: number): number | null {
  const seconds = 3;
  const sending = fsyncCalls(side, rate, seconds);
  const setup = fsyncCalls(side, rate, 0);
  return sending === null || setup === null ? null : Math.max(0, sending - setup) / seconds;
}

function fsyncCalls(side: Side, rate: number, seconds: number): number | null {
  if (!existsSync("/usr/bin/strace")) return null;
  const out = join(tmpdir(), `nearcast-claim-bench-strace-${process.pid}-${side}-${rate}-${seconds}.txt`);
  const proc = Bun.spawnSync(
    ["/usr/bin/strace", "-f", "-c", "-e", "trace=fsync,fdatasync", "-o", out, process.execPath, import.meta.path, "--child", side, String(rate), String(seconds)],
    { stdout: "ignore", stderr: "pipe" },
  );
  if (proc.exitCode !== 0) return null;
  const text = readFileSync(out, "utf8");
  rmSync(out, { force: true });
  let calls = 0;
  for (const line of text.split("\n")) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(fsync|fdatasync)\s*$/.exec(line);
    if (m) calls += Number(m[1]);
  }
  return calls;
}

if (CHILD) {
  const i = args.indexOf("--child");
  await run(args[i + 1] as Side, Number(args[i + 2]), Number(args[i + 3]));
  process.exit(0);
}

console.log(`claim durability: FULL vs NORMAL claims, ${SECONDS} s per side and rate, ${ROUNDS} round(s), data in ${tmpdir()} (load ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")})`);
const results: Result[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const rate of RATES) {
    const seconds = rate === 1 ? Math.max(SECONDS, 10) : SECONDS; // at least 10 claims at 1 msg/s
    const order: Side[] = round % 2 === 0 ? ["FULL", "NORMAL"] : ["NORMAL", "FULL"];
    for (const side of order) results.push(await run(side, rate, seconds));
  }
}

const rows: string[][] = [["rate", "side", "msgs", "claim p50 ms", "claim p99 ms", "CPU µs/msg", "fsyncs/s"]];
const summary: string[] = [];
for (const rate of RATES) {
  const of = (side: Side) => {
    const rs = results.filter((r) => r.rate === rate && r.side === side);
    const claims = rs.flatMap((r) => r.claimMs);
    return {
      msgs: rs.reduce((n, r) => n + r.messages, 0),
      p50: median(claims),
      p99: pct(claims, 99),
      cpu: median(rs.map((r) => r.cpuUs)),
      fsyncs: fsyncsPerSecond(side, rate),
    };
  };
  const full = of("FULL");
  const normal = of("NORMAL");
  for (const [side, s] of [["FULL", full], ["NORMAL", normal]] as const) {
    rows.push([String(rate), side, String(s.msgs), s.p50.toFixed(3), s.p99.toFixed(3), s.cpu.toFixed(0), s.fsyncs === null ? "n/a" : s.fsyncs.toFixed(1)]);
  }
  summary.push(
    `${rate} msg/s: claim p50 ${(full.p50 / normal.p50).toFixed(1)}x (+${(full.p50 - normal.p50).toFixed(3)} ms per claim), ` +
      `p99 ${(full.p99 / normal.p99).toFixed(1)}x, CPU/msg ${(full.cpu / normal.cpu).toFixed(2)}x, ` +
      `fsyncs/s ${full.fsyncs?.toFixed(1) ?? "n/a"} vs ${normal.fsyncs?.toFixed(1) ?? "n/a"}`,
  );
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((c, i) => c.padStart(widths[i]!)).join("  "));
console.log("");
for (const s of summary) console.log(s);
