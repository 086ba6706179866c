// Shared pieces of the HTTP throughput benches (bench/subscribe.ts, bench/webhooks.ts): command-line options, the
// load generator (wrk + a Lua script; autocannon only as a fallback the caller runs itself), CPU pinning with taskset,
// server processes (a private copy of the executable) and their CPU time from /proc, the baselines' npm installs,
// interleaved rounds and medians.
// Not a bench itself: bench/run.ts only runs bench/*.ts.
import { chmodSync, copyFileSync, existsSync, readFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import { basename, join } from "node:path";

/** `--name value` and `--flag` from argv. */
export function options(argv = process.argv.slice(2)) {
  return {
    flag: (name: string) => argv.includes(`--${name}`),
    opt: (name: string, fallback: string) => {
      const i = argv.indexOf(`--${name}`);
      return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
    },
  };
}

export const WRK = Bun.which("wrk");
export const TASKSET = Bun.which("taskset");
export const WRK_MISSING =
  "wrk is not installed: apt-get install -y wrk (Debian/Ubuntu), brew install wrk (macOS)";
export const AUTOCANNON_NOTE =
  "NOTE: wrk not found, falling back to autocannon (a Node process that needs about a core of its own; on a small " +
  "box it competes with the servers). Install wrk for fair numbers: apt-get install -y wrk (Debian/Ubuntu), brew install wrk (macOS).";

export type Generator = "wrk" | "autocannon";

/** Which generator (--generator, default wrk when installed) and where things run (--server-cpu, --load-cpu, --no-pin). */
export interface Placement {
  generator: Generator;
  /** Pinning with taskset: needs taskset and 2+ CPUs, and no --no-pin. */
  pin: boolean;
  serverCpu: string;
  loadCpu: string;
  /** The command, prefixed with `taskset -c <cpu>` when pinning. taskset execs it: the pid stays the command's own. */
  pinned(cpu: string, cmd: string[]): string[];
  describe(): string;
}

export function placement(o = options()): Placement {
  const generator = o.opt("generator", WRK ? "wrk" : "autocannon") as Generator;
  if (generator === "wrk" && !WRK) throw new Error(WRK_MISSING);
  if (generator === "autocannon") console.log(AUTOCANNON_NOTE);
  // The server under load on one core, the generator on another, so they do not take turns on one core.
  const pin = !o.flag("no-pin") && TASKSET !== null && availableParallelism() >= 2;
  const serverCpu = o.opt("server-cpu", "0");
  const loadCpu = o.opt("load-cpu", "1");
  return {
    generator,
    pin,
    serverCpu,
    loadCpu,
    pinned: (cpu, cmd) => (pin ? [TASKSET!, "-c", cpu, ...cmd] : cmd),
    describe: () => (pin ? `servers pinned to CPU ${serverCpu}, generator to CPU ${loadCpu} (taskset)` : "no CPU pinning"),
  };
}

/**
 * A private copy of the built executable in `dir` (a rebuild in the checkout during the run must not swap the
 * binary under us); its path.
 */
export function privateCopy(built: string, dir: string): string {
  if (!existsSync(built)) throw new Error(`${built} is missing: build it first (npx bun scripts/build.ts)`);
  const bin = join(dir, "nearcast");
  copyFileSync(built, bin);
  chmodSync(bin, 0o755);
  return bin;
}

/** Runs `npm ci` in a baseline's folder unless every one of `modules` is installed there already. */
export function ensureInstalled(baselineDir: string, modules: string[]): void {
  if (modules.every((m) => existsSync(join(baselineDir, "node_modules", m)))) return;
  const where = `bench/${basename(baselineDir)}`;
  console.log(`Installing the baseline's pinned dependencies (npm ci in ${where})...`);
  const res = Bun.spawnSync(["npm", "ci", "--no-audit", "--no-fund"], { cwd: baselineDir, stdout: "inherit", stderr: "inherit" });
  if (res.exitCode !== 0) throw new Error(`npm ci in ${where} failed (${res.exitCode})`);
}

export interface Server {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts a server process and resolves with its URL once it logs "listening on http://...". */
export async function startServer(cmd: string[], env: Record<string, string>): Promise<Server> {
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
    // taskset execs the server, so this is the server's own pid.
    pid: proc.pid,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** CPU seconds (user + system) a process has used so far, or NaN without /proc. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after "(comm) ".
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Runs fn and returns its result with the server CPU (µs) per request it reports; NaN without /proc. */
export function withServerCpu<T extends { requests: number }>(pid: number, fn: () => T): T & { cpuUs: number } {
  const cpu0 = cpuSeconds(pid);
  const r = fn();
  return { ...r, cpuUs: ((cpuSeconds(pid) - cpu0) * 1e6) / r.requests };
}

/**
 * One wrk run (`-t1`, pinned to the load CPU) with a Lua script whose done() prints ONE JSON line; returns it parsed,
 * plus the measured seconds and req/s. Arguments after `--` go to the script's init(args).
 */
export function runWrk<T extends { requests: number; durationUs: number }>(
  p: Placement,
  o: { script: string; url: string; seconds: number; connections: number; args: string[] },
): T & { seconds: number; rps: number } {
  const cmd = p.pinned(p.loadCpu, [
    WRK!, "-t1", `-c${o.connections}`, `-d${o.seconds}s`, "--timeout", "5s", "-s", o.script, o.url, "--", ...o.args,
  ]);
  const res = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  const line = res.stdout.toString().trim().split("\n").findLast((l) => l.startsWith("{"));
  if (res.exitCode !== 0 || !line) throw new Error(`wrk failed (${res.exitCode}):\n${res.stdout}\n${res.stderr}`);
  const r = JSON.parse(line) as T;
  const seconds = r.durationUs / 1e6;
  return { ...r, seconds, rps: r.requests / seconds };
}

/**
 * Interleaved rounds: every side gets one slice per round, the order alternating (A B, B A, ...), so other load on
 * the box weighs on all sides alike. `after` sees each finished round (for a progress line).
 */
export function interleave<S>(sides: S[], rounds: number, slice: (side: S, round: number) => void, after?: (round: number) => void): void {
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) slice(side, round);
    after?.(round);
  }
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The value below which `p` (0..1) of xs lie (nearest rank). */
export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
};

/** The XSRF cookie a server hands out on GET /api/health, to send back as cookie AND header (the double submit). */
export async function xsrfToken(url: string): Promise<string> {
  const res = await fetch(`${url}/api/health`);
  await res.arrayBuffer();
  const token = /XSRF-TOKEN=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  if (!token) throw new Error(`no XSRF-TOKEN cookie from ${url}/api/health`);
  return token;
}

export const thousands = (x: number) => Math.round(x).toLocaleString("en-US");

/** One load run against one side. */
export interface Slice {
  requests: number;
  seconds: number;
  rps: number;
  /** Requests the generator built or handed out (each with a new phone number, or the next unused callback). */
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
  /** Server CPU time (user + system, from /proc) per answered request, in µs; NaN where /proc is missing. */
  cpuUs: number;
}

/** One side of a throughput bench, as summarize() reads it. */
export interface MeasuredSide {
  name: string;
  slices: { rps: number; cpuUs: number; p50: number; p99: number }[];
}

export const medianRps = (s: MeasuredSide) => median(s.slices.map((x) => x.rps));
export const medianCpuUs = (s: MeasuredSide) => median(s.slices.map((x) => x.cpuUs));

/**
 * Prints the table of medians (req/s, range, CPU per request, p50, p99) for `sides`, then the ratio of nearcast's
 * median to the baseline's against `target`, the per-round ratios and the CPU ratio. Returns both ratios.
 */
export function summarize(
  sides: MeasuredSide[],
  nearcast: MeasuredSide,
  baseline: MeasuredSide,
  pairRatios: number[],
  target: number,
): { ratio: number; cpuRatio: number } {
  const ratio = medianRps(nearcast) / medianRps(baseline);
  const cpuRatio = medianCpuUs(baseline) / medianCpuUs(nearcast);
  console.log("");
  console.log(
    `${"".padEnd(42)} ${"median req/s".padStart(12)} ${"min–max req/s".padStart(17)} ${"µs CPU/req".padStart(10)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)}`,
  );
  for (const s of sides) {
    const rps = s.slices.map((x) => x.rps);
    console.log(
      `${s.name.padEnd(42)} ${thousands(medianRps(s)).padStart(12)} ${`${thousands(Math.min(...rps))}–${thousands(Math.max(...rps))}`.padStart(17)} ` +
        `${medianCpuUs(s).toFixed(1).padStart(10)} ` +
        `${median(s.slices.map((x) => x.p50)).toFixed(2).padStart(7)} ${median(s.slices.map((x) => x.p99)).toFixed(2).padStart(7)}`,
    );
  }
  console.log("");
  console.log(
    `ratio of medians nearcast / baseline: ${ratio.toFixed(2)}x (target >= ${target}x) ${ratio >= target ? "OK" : "BELOW TARGET"}; ` +
      `per-round ratios: median ${median(pairRatios).toFixed(2)}x, ${Math.min(...pairRatios).toFixed(2)}–${Math.max(...pairRatios).toFixed(2)}x`,
  );
  console.log(
    `server CPU per request, baseline / nearcast: ${cpuRatio.toFixed(2)}x ` +
      "(the throughput ratio a CPU-bound server on an otherwise idle core would reach; less sensitive to other load)",
  );
  return { ratio, cpuRatio };
}

/** CPU model and count, Bun, Node and wrk versions: the first line of a bench's output. */
export function machine(): string {
  const model = cpus()[0]?.model ?? "unknown CPU";
  let wrkVersion = "";
  if (WRK) wrkVersion = Bun.spawnSync([WRK, "--version"]).stdout.toString().split("\n")[0]?.split(" [")[0] ?? "";
  const node = Bun.spawnSync(["node", "--version"]).stdout.toString().trim();
  return `${availableParallelism()} x ${model}; bun ${Bun.version}, node ${node}${wrkVersion ? `, ${wrkVersion}` : ""}`;
}
