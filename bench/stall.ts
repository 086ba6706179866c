// Nothing long blocks the server (issue 12, item 3): GET /api/health, polled every 10 ms, while the running
// executable (or the CLI beside it) does the long jobs of a shop with a real customer base:
//   - a 50,000-row CSV import by the CLI (`nearcast customers import`), on the server's data dir;
//   - the same file uploaded on the Customers screen's path (POST /api/customer/ImportCustomers) into the big business,
//     when this build has it;
//   - a broadcast to 100,000 subscribers (POST /api/business/PublishMessageToAllCustomers): its enqueue;
//   - the consent export of the big business (GET /api/business/ExportConsent): the events the upload wrote.
// The named baseline, in the same run: the same polling of the same idle server. Printed: p50, p99 and the longest
// answer of each phase, and the p99 against the idle one.
//
// --beside-send (issue 21 item 6): the executable sends a broadcast to the fake Twilio (in a process of its own) at
// --rate messages a second, and a CLI import of --rows rows (default 20,000 here) runs beside it; the baseline is
// the same server sending with nothing beside it.
//
//   npx bun scripts/build.ts && npx bun bench/stall.ts [--nearcast path/to/executable] [--rows 50000] [--subscribers 100000]
//   npx bun bench/stall.ts --beside-send [--rows 20000] [--subscribers 5000] [--rate 50]
//
// Target: no answer waits more than 50 ms behind the work (p99 and max < 50 ms).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Subprocess } from "bun";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sessionFor } from "../test/helpers/customer-factories.ts";
import { insertBusiness } from "../test/helpers/factories.ts";
import { seedShop } from "../test/helpers/seed-shop.ts";
import { BINARY, startBinary } from "../test/helpers/server.ts";
import { startFakeTwilioProcess } from "./lib/fake-twilio.ts";

/** The fake Twilio in a process of its own: its env for the server, and how many it got. */
async function startFakeTwilio(): Promise<{ env: Record<string, string>; count(): Promise<number>; proc: Subprocess }> {
  const f = await startFakeTwilioProcess();
  const env = { TWILIO_ACCOUNT_SID: f.accountSid, TWILIO_AUTH_TOKEN: f.authToken, TWILIO_FROM: "+15550001111", TWILIO_API_BASE: f.url, NEARCAST_PUBLIC_URL: "https://deals.example.com" };
  return { env, proc: f.proc, count: async () => ((await (await fetch(f.countUrl)).json()) as { created: number }).created };
}

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const binary = opt("--nearcast") ?? BINARY;
const BESIDE_SEND = args.includes("--beside-send");
const ROWS = Number(opt("--rows") ?? (BESIDE_SEND ? 20_000 : 50_000));
const SUBSCRIBERS = Number(opt("--subscribers") ?? (BESIDE_SEND ? 5_000 : 100_000));
const RATE = Number(opt("--rate") ?? 50);
const TARGET_MS = 50;
const POLL_EVERY_MS = 10;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;

/** Polls `url` every 10 ms (a new request 10 ms after the last one started, or at once if it took longer) until stopped. */
function poll(url: string) {
  const ms: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`health answered ${res.status}`);
      const took = performance.now() - t0;
      ms.push(took);
      if (took < POLL_EVERY_MS) await Bun.sleep(POLL_EVERY_MS - took);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return ms;
    },
  };
}

interface Phase {
  name: string;
  ms: number[];
  workMs: number;
  note: string;
}

async function during(name: string, url: string, work: () => Promise<string>): Promise<Phase> {
  const poller = poll(url);
  await Bun.sleep(200); // polling before the work starts
  const t0 = performance.now();
  const note = await work();
  const workMs = performance.now() - t0;
  await Bun.sleep(200);
  return { name, ms: await poller.stop(), workMs, note };
}

const dataDir = mkdtempSync(join(tmpdir(), "nearcast-bench-stall-"));
const csv = join(dataDir, "import.csv");
const phases: Phase[] = [];
let server: Awaited<ReturnType<typeof startBinary>> | undefined;
let fake: Awaited<ReturnType<typeof startFakeTwilio>> | undefined;

/** The CLI import of the CSV into the second business, as a process of its own; its note. */
async function cliImport(importBusinessId: number): Promise<string> {
  const proc = Bun.spawn([binary, "customers", "import", "--business", String(importBusinessId), csv, "--json", "--data-dir", dataDir], {
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "" },
  });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`import failed: ${await new Response(proc.stderr).text()}`);
  return `${(JSON.parse(out) as { added: unknown[] }).added.length} added`;
}

/** A broadcast to the big business goes out to the fake Twilio; health is polled while it sends alone, then while
 * the CLI import runs beside it. */
async function besideSend(url: string, token: string, businessId: number, importBusinessId: number, twilio: NonNullable<typeof fake>): Promise<Phase[]> {
  const health = `${url}/api/health`;
  const form = new FormData();
  form.set("BusinessId", String(businessId));
  form.set("MessageText", "Flash sale: 2 croissants for $3 until noon!");
  const headers = { authorization: `Bearer ${token}`, "x-xsrf-token": "bench", cookie: "XSRF-TOKEN=bench" };
  const res = await fetch(`${url}/api/business/PublishMessageToAllCustomers`, { method: "POST", headers, body: form });
  if (res.status !== 200) throw new Error(`publish answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const sentBy = async () => `${await twilio.count()} sent so far`;
  const out: Phase[] = [];
  out.push(await during(`sending at ${RATE}/s (baseline)`, health, async () => {
    await Bun.sleep(3000);
    return await sentBy();
  }));
  out.push(await during(`CLI import ${ROWS.toLocaleString("en-US")} + sending`, health, async () => `${await cliImport(importBusinessId)}, ${await sentBy()}`));
  return out;
}

/** The jobs of issue 12, each beside the idle server. */
async function defaultPhases(businessId: number, importBusinessId: number, token: string): Promise<void> {
  server = await startBinary({ NEARCAST_LOG_LEVEL: "error", NEARCAST_SEND_RATE: "1", NEARCAST_QUIET_HOURS: "off" }, dataDir, { binary });
  const health = `${server.url}/api/health`;
  const auth = { authorization: `Bearer ${token}` };

  phases.push(await during("idle (baseline)", health, async () => {
    await Bun.sleep(3000);
    return "";
  }));
  phases.push(
    await during(`CLI import, ${ROWS.toLocaleString("en-US")} rows`, health, () => cliImport(importBusinessId)),
  );
  const probe = await fetch(`${server.url}/api/customer/ImportCustomers?businessId=${businessId}`, { method: "POST", headers: auth });
  if (probe.status !== 404) {
    // The same people, through the screen's upload, into the big business (new subscriptions of known customers).
    phases.push(
      await during(`HTTP import, ${ROWS.toLocaleString("en-US")} rows`, health, async () => {
        const headers = { ...auth, "x-xsrf-token": "bench", cookie: "XSRF-TOKEN=bench", "content-type": "text/csv" };
        const res = await fetch(`${server!.url}/api/customer/ImportCustomers?businessId=${businessId}&fileName=import.csv`, { method: "POST", headers, body: Bun.file(csv) });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`HTTP import answered ${res.status}: ${text.slice(0, 200)}`);
        const last = JSON.parse(text.trim().split("\n").at(-1)!) as { summary?: { added: unknown[] }; error?: string };
        if (!last.summary) throw new Error(`HTTP import stopped: ${last.error}`);
        return `${last.summary.added.length} added`;
      }),
    );
  }
  phases.push(
    await during(`enqueue of a broadcast to ${(SUBSCRIBERS + (probe.status !== 404 ? ROWS : 0)).toLocaleString("en-US")}`, health, async () => {
      const form = new FormData();
      form.set("BusinessId", String(businessId));
      form.set("MessageText", "Flash sale: 2 croissants for $3 until noon!");
      const res = await fetch(`${server!.url}/api/business/PublishMessageToAllCustomers`, { method: "POST", headers: { ...auth, "x-xsrf-token": "bench", cookie: "XSRF-TOKEN=bench" }, body: form });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`publish answered ${res.status}: ${text.slice(0, 200)}`);
      return `${(JSON.parse(text) as { recipients: number }).recipients} recipients`;
    }),
  );
  phases.push(
    await during("consent export of the big business", health, async () => {
      const res = await fetch(`${server!.url}/api/business/ExportConsent?id=${businessId}`, { headers: auth });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`export answered ${res.status}`);
      return `${(text.split("\r\n").length - 2).toLocaleString("en-US")} events, ${(text.length / 1024 / 1024).toFixed(1)} MB`;
    }),
  );
}

try {
  const { businessId, importBusinessId, token } = await seedShop(
    dataDir,
    { ownerEmail: "owner@example.com", businessName: "Big Bakery", subscribers: SUBSCRIBERS, firstNumber: 2_000_000 },
    async (ctx, id) => {
      const ownerId = ctx.repos.businesses.findById(id)!.ownerId;
      const second = insertBusiness(ctx, { ownerId, name: "Second Shop" });
      return { businessId: id, importBusinessId: second.id, token: sessionFor(ctx, { id: ownerId }) };
    },
  );
  const lines = Array.from({ length: ROWS }, (_, i) => `+1628${String(3_000_000 + i)},${i % 4 ? "SMS" : "WhatsApp"}`);
  writeFileSync(csv, `phone,contactPreference\n${lines.join("\n")}\n`);
  if (BESIDE_SEND) {
    fake = await startFakeTwilio();
    const env = { ...fake.env, NEARCAST_LOG_LEVEL: "error", NEARCAST_SEND_RATE: String(RATE), NEARCAST_QUIET_HOURS: "off", NEARCAST_MAX_PER_DAY: "0" };
    server = await startBinary(env, dataDir, { binary });
    phases.push(...(await besideSend(server.url, token, businessId, importBusinessId, fake)));
  } else {
    await defaultPhases(businessId, importBusinessId, token);
  }
} finally {
  await server?.stop();
  fake?.proc.kill();
  rmSync(dataDir, { recursive: true, force: true });
}

const idle = phases[0]!;
console.log(`GET /api/health every ${POLL_EVERY_MS} ms during each job, ${binary}, ${new Date().toISOString().slice(0, 10)}`);
console.log(`${"phase".padEnd(36)} ${"job".padStart(8)} ${"polls".padStart(6)} ${"p50".padStart(8)} ${"p99".padStart(8)} ${"max".padStart(8)}  p99 vs idle  target`);
for (const p of phases) {
  const p99 = pct(p.ms, 0.99);
  const max = Math.max(...p.ms);
  const verdict = p === idle ? "" : max < TARGET_MS ? "met" : "NOT MET";
  console.log(
    `${p.name.padEnd(36)} ${`${(p.workMs / 1000).toFixed(1)} s`.padStart(8)} ${String(p.ms.length).padStart(6)} ${`${pct(p.ms, 0.5).toFixed(1)} ms`.padStart(8)} ${`${p99.toFixed(1)} ms`.padStart(8)} ${`${max.toFixed(1)} ms`.padStart(8)}  ${`${(p99 / pct(idle.ms, 0.99)).toFixed(1)}x`.padStart(11)}  ${verdict} ${p.note ? `(${p.note})` : ""}`,
  );
}
