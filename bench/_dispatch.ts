// One side of bench/broadcast.ts's dispatch measurement, in a process of its own (as `nearcast serve` runs the
// dispatcher, with its WAL checkpoint thread), so its peak RSS is its own. Driven by lines on stdin, one slice
// each, so the bench can alternate the two sides while each stays warm; answers one JSON line per slice,
// {ms, count, failures}, and on "exit" {peakRssMb} (VmHWM from /proc, or the largest sample elsewhere).
//   --mode dispatcher --data-dir D --broadcast ID   "N": the dispatcher (rate unlimited, the Twilio adapter) sends
//                                                   N more deliveries of broadcast ID ("rest": all the rest);
//                                                   --collect-every K: a full GC every K sends (off by default)
//   --mode fetch --text T                           "N OFFSET": a bare fetch loop POSTs N messages
// Both against the fake Twilio --twilio (JSON {url, accountSid, authToken}), --concurrency at a time.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { createContext } from "../src/context.ts";
import { startCheckpointer } from "../src/db/checkpointer.ts";
import { MemoryLogger } from "../src/lib/logger.ts";
import { type FakeTwilioAddress, fakeTwilioConfig, PUBLIC_URL, SMS_FROM } from "./lib/fake-twilio.ts";

const opt = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const mode = opt("mode");
const concurrency = Number(opt("concurrency") ?? 32);
const fake = JSON.parse(opt("twilio") ?? "{}") as FakeTwilioAddress;

let sampled = 0;
const sampler = setInterval(() => {
  sampled = Math.max(sampled, process.memoryUsage.rss());
}, 20);
function peakRssMb(): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
    if (kb) return Number(kb) / 1024;
  } catch {
    // not Linux
  }
  return Math.max(sampled, process.memoryUsage.rss()) / 1024 / 1024;
}

type Slice = (args: string[]) => Promise<{ ms: number; count: number; failures: number }>;
let slice: Slice;
let close: () => void | Promise<void> = () => {};

if (mode === "fetch") {
  const text = opt("text") ?? "";
  const endpoint = `${fake.url}/2010-04-01/Accounts/${fake.accountSid}/Messages.json`;
  const auth = `Basic ${Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString("base64")}`;
  const run = async (n: number, from: number) => {
    let next = 0;
    let failures = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (;;) {
          const i = next++;
          if (i >= n) return;
          const body = new URLSearchParams({
            To: `+1415${String(5000000 + from + i).padStart(7, "0")}`,
            From: SMS_FROM,
            Body: text,
            StatusCallback: `${PUBLIC_URL}/api/webhooks/twilio/status?delivery=${from + i}`,
          });
          const res = await fetch(endpoint, {
            method: "POST",
            headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
            body,
          });
          const json = (await res.json()) as { sid?: string };
          if (res.status !== 201 || !json.sid) failures++;
        }
      }),
    );
    return failures;
  };
  await run(500, 900_000); // warm-up, untimed
  slice = async ([n, offset]) => {
    const t0 = performance.now();
    const failures = await run(Number(n), Number(offset));
    return { ms: performance.now() - t0, count: Number(n), failures };
  };
} else if (mode === "dispatcher") {
  const config = fakeTwilioConfig(fake, opt("data-dir"));
  const ctx = createContext(config, { logger: new MemoryLogger() });
  // As `nearcast serve` runs: WAL checkpoints on their own thread.
  const checkpointer = startCheckpointer(ctx.db.$client, ctx.dbPath, { logger: ctx.logger });
  if (!(await checkpointer.ready)) throw new Error("the checkpointer did not start");
  const broadcastId = Number(opt("broadcast"));
  const warmupId = Number(opt("warmup-broadcast"));
  const collectEvery = Number(opt("collect-every") ?? 0);
  const collect = collectEvery > 0 ? { collectGarbage: () => Bun.gc(true), collectEverySends: collectEvery } : {};
  const done = (id: number) => ctx.repos.broadcasts.findById(id)?.completedAt != null;
  /** Runs one dispatcher until `n` sends more (or the broadcast is done); the time from start to then. */
  const dispatch = async (n: number, id: number) => {
    const dispatcher = ctx.dispatcherWith({ rate: Number.POSITIVE_INFINITY, concurrency, takeLock: null, ...collect });
    const before = ctx.repos.deliveries.counts(id).Sent;
    const t0 = performance.now();
    dispatcher.start();
    while (dispatcher.stats.sent < n && !done(id)) await Bun.sleep(5);
    const ms = performance.now() - t0;
    await dispatcher.stop();
    const sent = ctx.repos.deliveries.counts(id).Sent - before;
    return { ms, count: sent, failures: dispatcher.stats.failed + dispatcher.stats.uncertain + dispatcher.stats.requeued };
  };
  // Warm-up, untimed: a small broadcast of its own (the twilio module, connections, JIT, SQLite's cache).
  if (warmupId) await dispatch(Number(opt("warmup-messages") ?? 1000), warmupId);
  slice = ([n]) => dispatch(n === "rest" ? Number.POSITIVE_INFINITY : Number(n), broadcastId);
  close = async () => {
    await checkpointer.stop();
    ctx.close();
  };
} else {
  throw new Error("--mode fetch|dispatcher");
}

process.stdout.write("ready\n");
for await (const line of createInterface({ input: process.stdin })) {
  const words = line.trim().split(/\s+/);
  if (words[0] === "exit") break;
  process.stdout.write(`${JSON.stringify(await slice(words))}\n`);
}
clearInterval(sampler);
await close();
process.stdout.write(`${JSON.stringify({ peakRssMb: peakRssMb() })}\n`);
process.exit(0);
