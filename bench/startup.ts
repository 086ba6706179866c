// Start-up benchmark: how long `dist/nearcast serve` takes from process start to its first 200 on /api/health with
// an EXISTING database, and how much memory (RSS) it holds once idle, each the median of several runs. Measured side
// by side, in the same run and interleaved, against two named baselines compiled with the SAME `bun build --compile`
// flags as dist/nearcast (scripts/build.ts COMPILE_FLAGS; dist/nearcast adds APP_COMPILE_FLAGS, its own bytecode layout
// and JIT policy), in a temp dir:
//   - "bun hello-world":      Bun.serve answering /api/health with a JSON literal: the floor Bun itself imposes;
//   - "bun + sqlite + crypto": the same plus bun:sqlite opening a copy of the same database (WAL, busy_timeout,
//     one query per request) and a random cookie token (node:crypto): the floor of this architecture.
// Targets (issue 26 item 2, 2-core machine): start <= 70 ms, idle RSS <= 60 MB on an empty data dir; start <= 1 s on
// the big database (50,000 subscribers, 1,000,000 deliveries: bench/lib/seed-results.ts, seeded once per run, about a
// minute; --no-big skips it), where serve must not read the whole file before it answers.
//
//   npx bun scripts/build.ts && npx bun bench/startup.ts              (9 runs of each, about 30 s)
//   npx bun bench/startup.ts --runs 5 --json
//   npx bun bench/startup.ts --compare /tmp/nearcast-smol             (also measure other builds of nearcast)
//   npx bun bench/startup.ts --baseline /tmp/nearcast-before          (and hold nearcast to issue 8's limits against
//                                                                      it: idle RSS +5 MB, CLI command start +10 ms)
//
// Every build of nearcast also gets its CLI command start timed: `business-types list --json` on the same database,
// from spawn to exit, alternated with the baseline "bun + sqlite print": an executable compiled with the same flags
// that prints the same JSON from bun:sqlite (issue 26 item 6: the CLI <= 50 ms).
//
// Only loopback traffic (127.0.0.1). Bounded: at most 25 runs per subject, 10 s per start, 8 minutes in all.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { compileExecutable } from "../scripts/build.ts";
import { timeCliReads } from "./lib/cli-read.ts";
import { report, type SubjectResult } from "./lib/startup-report.ts";
import { seedBigDatabase } from "./lib/seed-results.ts";

const root = join(import.meta.dir, "..");
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const options = (name: string): string[] => args.flatMap((a, i) => (a === `--${name}` && args[i + 1] ? [args[i + 1]!] : []));

const RUNS = Math.min(25, Math.max(3, Number(option("runs") ?? 9)));
const IDLE_MS = Math.min(5000, Math.max(200, Number(option("idle-ms") ?? 1000)));
const REQUESTS = Math.min(2000, Math.max(10, Number(option("requests") ?? 200)));
const JSON_OUT = flag("json");
const BINARY = option("binary") ?? join(root, "dist", "nearcast");
const BIG = !flag("no-big");
const BIG_RUNS = Math.min(9, Math.max(3, Number(option("big-runs") ?? 5)));
const START_TIMEOUT_MS = 10_000;
const TOTAL_LIMIT_MS = 480_000;
const TARGET_START_MS = 70;
const TARGET_RSS_MB = 60;
const TARGET_BIG_START_MS = 1000;
const TARGET_CLI_MS = 50;
const BASELINE = option("baseline");
const LIMIT_RSS_MB = 5;
const LIMIT_CLI_MS = 10;

interface Subject {
  name: string;
  cmd: (port: number) => string[];
  /** A nearcast build: its CLI start is timed too. */
  bin?: string;
}

interface Sample {
  startMs: number;
  rssMb: number;
  anonMb: number;
  fileMb: number;
  latencyP50Us: number;
}

const benchStarted = performance.now();
function checkBudget(): void {
  if (performance.now() - benchStarted > TOTAL_LIMIT_MS) throw new Error(`startup bench: over ${TOTAL_LIMIT_MS / 1000} s, stopped`);
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/** VmRSS and its anonymous / file-backed parts, in MB, from /proc (Linux). */
function memory(pid: number): { rss: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: kb("VmRSS") / 1024, anon: kb("RssAnon") / 1024, file: kb("RssFile") / 1024 };
}

async function stopProcess(proc: ReturnType<typeof Bun.spawn>): Promise<void> {
  proc.kill("SIGTERM");
  const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
  if (!exited) {
    proc.kill("SIGKILL");
    await proc.exited;
  }
}

/** One cold start: spawn, poll /api/health until 200, idle, read RSS, then time sequential health requests. */
async function measure(subject: Subject, cwd: string): Promise<Sample> {
  checkBudget();
  const port = freePort();
  const url = `http://127.0.0.1:${port}/api/health`;
  const started = performance.now();
  const proc = Bun.spawn(subject.cmd(port), { cwd, env: { PATH: process.env.PATH ?? "" }, stdout: "ignore", stderr: "pipe" });
  let startMs = 0;
  try {
    for (;;) {
      if (proc.exitCode !== null) {
        throw new Error(`${subject.name} exited (${proc.exitCode}): ${await new Response(proc.stderr).text()}`);
      }
      if (performance.now() - started > START_TIMEOUT_MS) throw new Error(`${subject.name}: no 200 on /api/health within 10 s`);
      const res = await fetch(url).catch(() => undefined);
      if (res) {
        const body = (await res.json().catch(() => ({}))) as { status?: string };
        if (res.status === 200 && body.status === "ok") {
          startMs = performance.now() - started;
          break;
        }
      }
      await Bun.sleep(1);
    }
    await Bun.sleep(IDLE_MS);
    const mem = memory(proc.pid);
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const t = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      times.push(performance.now() - t);
    }
    return { startMs, rssMb: mem.rss, anonMb: mem.anon, fileMb: mem.file, latencyP50Us: median(times) * 1000 };
  } finally {
    await stopProcess(proc);
  }
}

/** One warm-up round (page cache, fetch client), then `runs` rounds with the order rotated each round. */
async function measureAll(subjects: Subject[], cwd: string, runs: number): Promise<SubjectResult[]> {
  for (const s of subjects) await measure(s, cwd);
  const samples = new Map<string, Sample[]>(subjects.map((s) => [s.name, []]));
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < subjects.length; k++) {
      const s = subjects[(round + k) % subjects.length]!;
      samples.get(s.name)!.push(await measure(s, cwd));
    }
  }
  return subjects.map((s) => {
    const list = samples.get(s.name)!;
    const start = list.map((x) => x.startMs);
    const rss = list.map((x) => x.rssMb);
    return {
      name: s.name,
      runs: list.length,
      startMs: { median: median(start), min: Math.min(...start), max: Math.max(...start) },
      rssMb: { median: median(rss), min: Math.min(...rss), max: Math.max(...rss) },
      anonMb: median(list.map((x) => x.anonMb)),
      fileMb: median(list.map((x) => x.fileMb)),
      latencyP50Us: median(list.map((x) => x.latencyP50Us)),
    };
  });
}

const HELLO = `// bench baseline: the smallest Bun server answering like /api/health
const port = Number(process.argv[2]);
Bun.serve({ port, hostname: "127.0.0.1", fetch: () => Response.json({ status: "ok", version: "0.0.0" }) });
`;

const SQLITE_FLOOR = `// bench baseline: Bun.serve + bun:sqlite (the existing database, same PRAGMAs) + a random cookie token
import { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
const port = Number(process.argv[2]);
const db = new Database(process.argv[3], { create: false, strict: true });
db.exec("PRAGMA journal_mode = WAL");
db.exec("PRAGMA busy_timeout = 5000");
db.exec("PRAGMA foreign_keys = ON");
db.exec("PRAGMA synchronous = NORMAL");
const count = db.query("SELECT count(*) AS n FROM sqlite_master");
Bun.serve({
  port,
  hostname: "127.0.0.1",
  fetch: () => {
    const n = (count.get() as { n: number }).n;
    const res = Response.json({ status: "ok", version: "0.0.0", tables: n });
    res.headers.set("set-cookie", "XSRF-TOKEN=" + randomBytes(32).toString("base64url") + "; Path=/; SameSite=Strict");
    return res;
  },
});
`;

async function main(): Promise<void> {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} not found: run \`npx bun scripts/build.ts\` first`);
  const work = mkdtempSync(join(tmpdir(), "nearcast-bench-startup-"));
  try {
    // A private copy: others may rebuild dist/ while this runs.
    const bin = join(work, "nearcast");
    copyFileSync(BINARY, bin);
    const cwd = join(work, "cwd"); // empty working directory: no node_modules, no .env, no bunfig.toml
    mkdirSync(cwd);
    const dataDir = join(work, "data");

    // The EXISTING database: migrations applied and one account, by the executable itself.
    const prep = Bun.spawnSync(
      [bin, "users", "create", "--email", "bench@example.com", "--password", "bench-password", "--data-dir", dataDir],
      { cwd, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" },
    );
    if (prep.exitCode !== 0) throw new Error(`preparing the database failed: ${prep.stderr.toString()}`);
    const floorDb = join(work, "floor.db");
    copyFileSync(join(dataDir, "nearcast.db"), floorDb);

    writeFileSync(join(work, "hello.ts"), HELLO);
    writeFileSync(join(work, "sqlite-floor.ts"), SQLITE_FLOOR);
    compileExecutable(join(work, "hello.ts"), join(work, "hello"), { cwd: work, quiet: true });
    compileExecutable(join(work, "sqlite-floor.ts"), join(work, "sqlite-floor"), { cwd: work, quiet: true });

    const serve = (path: string) => (port: number) => [path, "serve", "--port", String(port), "--host", "127.0.0.1", "--data-dir", dataDir];
    const subjects: Subject[] = [
      { name: "bun hello-world (baseline)", cmd: (port) => [join(work, "hello"), String(port)] },
      { name: "bun + sqlite + crypto (floor)", cmd: (port) => [join(work, "sqlite-floor"), String(port), floorDb] },
      { name: "nearcast", cmd: serve(bin), bin },
      ...[...(BASELINE ? [BASELINE] : []), ...options("compare")].map((path, i) => {
        const copy = join(work, `compare-${i}-${basename(path)}`);
        copyFileSync(path, copy);
        return { name: `${path === BASELINE && i === 0 ? "baseline" : "compare"}: ${basename(path)}`, cmd: serve(copy), bin: copy };
      }),
    ];

    const results = await measureAll(subjects, cwd, RUNS);

    // The CLI: each build's read command and the baseline printing the same JSON, alternated (bench/lib/cli-read.ts).
    const cli = timeCliReads(work, cwd, dataDir, subjects.filter((s) => s.bin).map((s) => ({ name: s.name, bin: s.bin! })), RUNS * 2, checkBudget);
    for (const r of results) if (cli.medians.has(r.name)) r.cliMs = cli.medians.get(r.name);
    const cliBaselineMs = cli.baselineMs;

    // The big database: serve's start must not read the whole file first.
    let big: SubjectResult[] = [];
    if (BIG) {
      const bigDir = join(work, "big");
      const seeded = await seedBigDatabase(bigDir);
      console.error(`big database: ${seeded.mb.toFixed(0)} MB, seeded in ${seeded.seconds.toFixed(0)} s`);
      const bigFloor = join(work, "big-floor.db");
      copyFileSync(join(bigDir, "nearcast.db"), bigFloor);
      const onBig = (path: string) => (port: number) => [path, "serve", "--port", String(port), "--host", "127.0.0.1", "--data-dir", bigDir];
      big = await measureAll(
        [
          { name: "bun + sqlite + crypto (floor), big", cmd: (port) => [join(work, "sqlite-floor"), String(port), bigFloor] },
          ...subjects.filter((s) => s.bin).map((s) => ({ name: `${s.name}, big`, cmd: onBig(s.bin!), bin: s.bin })),
        ],
        cwd,
        BIG_RUNS,
      );
    }
    report(results, cliBaselineMs, big, {
      runs: RUNS,
      bigRuns: BIG_RUNS,
      idleMs: IDLE_MS,
      requests: REQUESTS,
      json: JSON_OUT,
      targets: { startMs: TARGET_START_MS, rssMb: TARGET_RSS_MB, bigStartMs: TARGET_BIG_START_MS, cliMs: TARGET_CLI_MS },
      limits: { rssMb: LIMIT_RSS_MB, cliMs: LIMIT_CLI_MS },
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
