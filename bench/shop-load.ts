// Shop load: the latency a visitor feels on POST /api/subscription/Subscribe (p50, p99) at a shop's pace, 50 req/s
// open loop (each request leaves at its scheduled time whatever the earlier ones are doing, and its latency counts
// from that time), while the server's dispatcher sends a broadcast at 10 msg/s through the sandbox messenger. Two
// executables side by side in one run: each has its own data directory, made with its own CLI and API (an admin, an
// owner, a type, a business, SUBSCRIBERS imported subscribers and one broadcast queued to all of them); slices
// alternate between them (A B, B A, ...), and only one server runs at a time.
//
//   npx bun bench/shop-load.ts --baseline /tmp/nearcast-before --nearcast dist/nearcast
//     [--rate 50] [--send-rate 10] [--slice 30] [--warmup 5] [--rounds 4] [--server-cpu 0] [--load-cpu 1] [--no-pin]
//
// Only loopback traffic (127.0.0.1); no Twilio. Bounded: every slice stops its server.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { machine, median, options, percentile, privateCopy, type Server, startServer, TASKSET, xsrfToken } from "./lib/harness.ts";

const root = join(import.meta.dir, "..");
const { opt, flag } = options();
/** Subscribes per second, messages per second, seconds measured and warming up per slice, rounds. */
const [RATE, SEND_RATE, SLICE_SECONDS, WARMUP_SECONDS, ROUNDS] = (
  [["rate", 50], ["send-rate", 10], ["slice", 30], ["warmup", 5], ["rounds", 4]] as const
).map(([name, fallback]) => Number(opt(name, String(fallback)))) as [number, number, number, number, number];
/** Enough recipients that the broadcast is still going when the last slice ends. */
const SUBSCRIBERS = Math.ceil(SEND_RATE * (SLICE_SECONDS + WARMUP_SECONDS + 5) * ROUNDS * 1.5);
/** What DESIGN.md calls worth a mechanism: at least 20% off a figure a user feels, here p99. */
const WORTH = 0.8;
// The server on one core, this process (the load) on the other, so they do not take turns on one core.
const PIN = !flag("no-pin") && TASKSET !== null && availableParallelism() >= 2;
const SERVER_CPU = opt("server-cpu", "0");
const LOAD_CPU = opt("load-cpu", "1");
const pinned = (cmd: string[]) => (PIN ? [TASKSET!, "-c", SERVER_CPU, ...cmd] : cmd);

const PASSWORD = "bench-password";
// A 1x1 PNG: the sample image a business needs.
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));

interface Slice {
  latencies: number[];
  failures: number;
}

interface Side {
  name: string;
  bin: string;
  dataDir: string;
  businessId: number;
  broadcastId: number;
  /** Phones continue from slice to slice, so every subscribe is a new person. */
  nextPhone: number;
  slices: Slice[];
}

const env = (dataDir: string): Record<string, string> => ({
  NEARCAST_DATA_DIR: dataDir,
  NEARCAST_SUBSCRIBE_LIMIT: "0",
  NEARCAST_SEND_RATE: String(SEND_RATE),
  // The WhatsApp half subscribes Toronto numbers: a US number cannot subscribe by WhatsApp (issue 23 item 7).
  NEARCAST_ALLOWED_COUNTRIES: "US,CA",
});

/** Runs one CLI command of the side's executable; its stdout. */
function cli(bin: string, dataDir: string, args: string[]): string {
  const res = Bun.spawnSync([bin, ...args], { env: { PATH: process.env.PATH ?? "", ...env(dataDir) }, stdout: "pipe", stderr: "pipe" });
  if (res.exitCode !== 0) throw new Error(`nearcast ${args.join(" ")} failed (${res.exitCode}): ${res.stderr.toString()}`);
  return res.stdout.toString();
}

const serve = (side: Pick<Side, "bin" | "dataDir">): Promise<Server> =>
  startServer(pinned([side.bin, "serve", "--port", "0", "--host", "127.0.0.1"]), env(side.dataDir));

/** POST/GET with the XSRF double submit and an optional bearer token; the parsed JSON answer. */
async function api(url: string, xsrf: string, path: string, init: { method?: string; json?: unknown; form?: FormData; token?: string } = {}) {
  const headers: Record<string, string> = { cookie: `XSRF-TOKEN=${xsrf}`, "x-xsrf-token": xsrf };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${url}${path}`, {
    method: init.method ?? (init.json !== undefined || init.form ? "POST" : "GET"),
    headers,
    body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
  });
  const body = (await res.json()) as any;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** A data directory the way a shop gets one: accounts and a type from the CLI, the business through the API. */
async function prepare(name: string, built: string, work: string): Promise<Side> {
  const dir = join(work, name);
  mkdirSync(dir);
  const bin = privateCopy(built, dir);
  const dataDir = join(dir, "data");
  cli(bin, dataDir, ["users", "create", "--email", "admin@example.com", "--password", PASSWORD, "--admin"]);
  cli(bin, dataDir, ["users", "create", "--email", "owner@example.com", "--password", PASSWORD]);
  const type = JSON.parse(cli(bin, dataDir, ["business-types", "add", "--name", "Bakery", "--json"])) as { id: number };

  const server = await serve({ bin, dataDir });
  let businessId: number;
  try {
    const xsrf = await xsrfToken(server.url);
    const { token } = await api(server.url, xsrf, "/api/auth/Login", { json: { email: "owner@example.com", password: PASSWORD } });
    const form = new FormData();
    form.append("file", new File([PNG], "sample.png", { type: "image/png" }));
    const sample = await api(server.url, xsrf, "/api/business/UploadSampleImage", { form, token });
    const business = await api(server.url, xsrf, "/api/business/CreateBusiness", {
      token,
      json: {
        name: "Bench Bakery",
        businessTypeId: type.id,
        address: "1 Bench Street, Springfield",
        phone: "(415) 555-0100",
        sampleProductText: "Sourdough",
        isActive: true,
        sampleImagePath: sample.filePath,
      },
    });
    businessId = business.id;
  } finally {
    await server.stop();
  }

  // Subscribers in (212) 3xx-xxxx; the load subscribes (415) 2xx-xxxx, so the two never meet.
  const csv = join(dir, "subscribers.csv");
  const rows = Array.from({ length: SUBSCRIBERS }, (_, i) => `(212) ${300 + Math.floor(i / 10_000)}-${String(i % 10_000).padStart(4, "0")},SMS`);
  writeFileSync(csv, `phone,contactPreference\n${rows.join("\n")}\n`);
  cli(bin, dataDir, ["customers", "import", "--business", String(businessId), csv]);
  // Queued now; each slice's server sends on from where the last one stopped.
  const queued = cli(bin, dataDir, ["broadcast", "send", "--yes", "--business", String(businessId), "--message", "Fresh bread at 7!", "--no-wait"]);
  const broadcastId = Number(/broadcast (\d+)/.exec(queued)?.[1]);
  if (!broadcastId) throw new Error(`no broadcast id in: ${queued}`);
  return { name, bin, dataDir, businessId, broadcastId, nextPhone: 0, slices: [] };
}

const phone = (n: number, area = "415") => `(${area}) ${200 + Math.floor(n / 10_000)}-${String(n % 10_000).padStart(4, "0")}`;

/** `seconds` of open-loop subscribes at RATE per second; latency from each request's scheduled time. */
async function load(side: Side, url: string, xsrf: string, seconds: number): Promise<Slice> {
  const headers = { cookie: `XSRF-TOKEN=${xsrf}`, "x-xsrf-token": xsrf, "content-type": "application/json" };
  const gapMs = 1000 / RATE;
  const total = Math.round(seconds * RATE);
  const latencies: number[] = [];
  let failures = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now() + 10;
  for (let i = 0; i < total; i++) {
    const due = start + i * gapMs;
    const wait = due - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    const body = JSON.stringify({ businessId: side.businessId, phone: phone(side.nextPhone++, i % 2 ? "415" : "416"), contactPreference: i % 2 ? "SMS" : "WhatsApp" });
    inFlight.push(
      fetch(`${url}/api/subscription/Subscribe`, { method: "POST", headers, body })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status === 200) latencies.push(performance.now() - due);
          else failures++;
        })
        .catch(() => void failures++),
    );
  }
  await Promise.all(inFlight);
  return { latencies, failures };
}

/** One slice: start the side's server (its dispatcher resumes the broadcast), warm up, measure, stop. */
async function slice(side: Side): Promise<void> {
  const server = await serve(side);
  try {
    const xsrf = await xsrfToken(server.url);
    await load(side, server.url, xsrf, WARMUP_SECONDS);
    side.slices.push(await load(side, server.url, xsrf, SLICE_SECONDS));
  } finally {
    await server.stop();
  }
}

const ms = (x: number) => `${x.toFixed(2)} ms`.padStart(10);
const all = (s: Side) => s.slices.flatMap((x) => x.latencies);

async function main(): Promise<void> {
  const baselinePath = opt("baseline", "");
  if (!baselinePath) {
    // bench/run.ts runs every bench without options: this one has nothing to compare with then.
    console.log("shop-load: skipped; give --baseline <executable> (the build to compare against), e.g. a copy of an older dist/nearcast");
    return;
  }
  const nearcastPath = opt("nearcast", join(root, "dist", "nearcast"));
  if (PIN) Bun.spawnSync([TASKSET!, "-cp", LOAD_CPU, String(process.pid)], { stdout: "ignore" });
  const work = mkdtempSync(join(tmpdir(), "nearcast-bench-shop-load-"));
  try {
    console.log(`machine: ${machine()}`);
    console.log(
      `subscribe at ${RATE} req/s (open loop, a new phone each) while a broadcast sends at ${SEND_RATE} msg/s (sandbox); ` +
        `${PIN ? `servers pinned to CPU ${SERVER_CPU}, load to CPU ${LOAD_CPU}` : "no CPU pinning"}; per slice ${WARMUP_SECONDS} s warm-up + ${SLICE_SECONDS} s measured, ${ROUNDS} rounds, sides alternating`,
    );
    console.log(`baseline: ${baselinePath}\nnearcast: ${nearcastPath}\n`);
    const baseline = await prepare("baseline", baselinePath, work);
    const nearcast = await prepare("nearcast", nearcastPath, work);
    const load0 = loadavg()[0]!;
    const sides = [nearcast, baseline];
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) await slice(side);
      const [n, b] = [nearcast.slices.at(-1)!, baseline.slices.at(-1)!];
      console.log(
        `  round ${round + 1}: p99 nearcast ${ms(percentile(n.latencies, 0.99))}, baseline ${ms(percentile(b.latencies, 0.99))}` +
          ` (${(percentile(n.latencies, 0.99) / percentile(b.latencies, 0.99)).toFixed(2)}x)`,
      );
    }
    const load1 = loadavg()[0]!;

    console.log(`\n${"".padEnd(12)} ${"requests".padStart(9)} ${"failed".padStart(7)} ${"p50".padStart(10)} ${"p99".padStart(10)} ${"max".padStart(10)}  broadcast`);
    for (const s of [nearcast, baseline]) {
      const xs = all(s);
      const b = JSON.parse(cli(s.bin, s.dataDir, ["broadcast", "status", String(s.broadcastId), "--json"]));
      const progress = `${b.sent + b.delivered + b.failed} of ${b.total} sent, ${b.queued} queued`;
      console.log(
        `${basename(s.name).padEnd(12)} ${String(xs.length).padStart(9)} ${String(s.slices.reduce((n, x) => n + x.failures, 0)).padStart(7)} ` +
          `${ms(percentile(xs, 0.5))} ${ms(percentile(xs, 0.99))} ${ms(Math.max(...xs))}  ${progress}`,
      );
    }
    const p99 = percentile(all(nearcast), 0.99) / percentile(all(baseline), 0.99);
    const p50 = percentile(all(nearcast), 0.5) / percentile(all(baseline), 0.5);
    const rounds = nearcast.slices.map((n, i) => percentile(n.latencies, 0.99) / percentile(baseline.slices[i]!.latencies, 0.99));
    console.log(
      `\nnearcast / baseline: p99 ${p99.toFixed(2)}x (per round: median ${median(rounds).toFixed(2)}x, ` +
        `${Math.min(...rounds).toFixed(2)}–${Math.max(...rounds).toFixed(2)}x), p50 ${p50.toFixed(2)}x`,
    );
    console.log(
      p99 <= WORTH
        ? `nearcast's p99 is at least ${Math.round((1 - WORTH) * 100)}% lower than the baseline's`
        : p99 >= 1 / WORTH
          ? `the baseline's p99 is at least ${Math.round((1 - WORTH) * 100)}% lower than nearcast's`
          : `neither p99 is ${Math.round((1 - WORTH) * 100)}% lower than the other's`,
    );
    console.log(`load average (1 min) before/after: ${load0.toFixed(2)} / ${load1.toFixed(2)}`);
    // A failed subscribe is not a latency: the comparison only means something when every request was answered 200.
    const failed = sides.reduce((n, side) => n + side.slices.reduce((m, x) => m + x.failures, 0), 0);
    if (failed > 0) {
      console.error(`${failed} subscribe request(s) failed`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
