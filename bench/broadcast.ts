// Broadcast benchmark: 100,000 subscribers, against named baselines measured in the same run.
//
// 1. Enqueue: the broadcasts service's publish (validation, whether anyone would receive it, then ONE transaction
//    with the broadcast row and one INSERT ... SELECT writing a delivery per active subscriber not under a STOP, the
//    triggers counting each into broadcast_counts), against the bare floor: the same broadcast row and the
//    INSERT ... SELECT without the opt-out guard and without the counting triggers (dropped for its rounds),
//    straight on bun:sqlite in one transaction. Interleaved, median of --rounds each. Target: service <= 2x bare.
//    Then GetBroadcastStatus's read (services.broadcasts.status) of the 100,000-recipient broadcast, half of it
//    sent, against the COUNT ... GROUP BY it did per poll before the counts were kept (median and p99 of 200).
//    Target: < 10 ms.
// 2. Dispatch: the dispatcher (rate unlimited, --concurrency sends in flight) through the Twilio adapter against
//    the fake Twilio (test/helpers/fake-twilio.ts, in a process of its own: bench/_fake-twilio.ts) on loopback,
//    against the bare floor: a fetch loop POSTing the same form to the same fake with the same concurrency. In
//    --dispatch-rounds alternating slices of a quarter each (a busy machine weighs on both sides alike), each in a
//    fresh process of its own (bench/_dispatch.ts, as `nearcast serve` runs it) after an untimed warm-up.
//    Target: >= 0.5x.
// 3. Peak RSS (VmHWM) of the dispatching process. Target: < 100 MB. The dispatcher forces no garbage collection
//    unless --collect-every K asks for one every K sends.
// Afterwards every delivery must be Sent with its own Twilio sid, and the fake must have created every message:
// exit status 1 otherwise.
//
//   npx bun bench/broadcast.ts [--subscribers 100000] [--concurrency 32] [--rounds 3] [--dispatch-rounds 4]
//                              [--collect-every K] [--enqueue-only]
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { createContext } from "../src/context.ts";
import { startCheckpointer } from "../src/db/checkpointer.ts";
import { MemoryLogger } from "../src/lib/logger.ts";
import { fakeTwilioConfig, startFakeTwilioProcess } from "./lib/fake-twilio.ts";
import { OPERATOR } from "../src/services/principal.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SUBSCRIBERS = Math.max(1000, arg("subscribers", 100_000));
const CONCURRENCY = Math.max(1, arg("concurrency", 32));
const ROUNDS = Math.max(1, arg("rounds", 3));
const DISPATCH_ROUNDS = Math.max(1, arg("dispatch-rounds", 4));
/** Only part 1 (enqueue, the progress read, the WAL): the dispatch sides take many minutes on a small machine. */
const ENQUEUE_ONLY = process.argv.includes("--enqueue-only");
const COLLECT_EVERY = Math.max(0, arg("collect-every", 0));
/** The dispatcher's untimed warm-up: a broadcast of its own to this many of the subscribers. */
const WARMUP_MESSAGES = 2000;
const TEXT = "Flash sale at Ana's Bakery: 2 croissants for $3 until noon! Reply STOP to opt out.";
const TARGET_ENQUEUE = 2;
const TARGET_DISPATCH = 0.5;
const TARGET_RSS_MB = 100;

const mb = (bytes: number) => bytes / 1024 / 1024;
const verdict = (pass: boolean) => (pass ? "target met" : "TARGET NOT MET");
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// RSS of this process (seeding and enqueue); the dispatch sides report their own.
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 20);

// The fake Twilio, in its own process.
const { proc: fakeProc, ...fake } = await startFakeTwilioProcess();

const dir = mkdtempSync(join(tmpdir(), "nearcast-bench-broadcast-"));
let ok = true;
try {
  const config = fakeTwilioConfig(fake, dir);
  const ctx = createContext(config, { logger: new MemoryLogger() });
  const sqlite = ctx.db.$client;

  // --- The world: one owner, one business, SUBSCRIBERS active subscribers (a tenth on WhatsApp... as SMS here:
  // the fake has no WhatsApp sender configured, and the channel does not change the cost).
  const now = Date.now();
  const ownerId = (sqlite.prepare("INSERT INTO users (email, first_name, last_name, password_hash) VALUES ('bench@example.com', 'B', 'B', 'x') RETURNING id").get() as { id: number }).id;
  const typeId = (sqlite.prepare("INSERT INTO business_types (name) VALUES ('Bakery') RETURNING id").get() as { id: number }).id;
  const addBusiness = (name: string) =>
    (
      sqlite
        .prepare("INSERT INTO businesses (owner_id, business_type_id, name, address, phone, sample_product_text) VALUES (?1, ?2, ?3, '1 Main St', '+14155550100', 'Bread') RETURNING id")
        .get(ownerId, typeId, name) as { id: number }
    ).id;
  const businessId = addBusiness("Ana's Bakery");
  const warmupBusinessId = addBusiness("Warm-up");
  sqlite.transaction(() => {
    const customer = sqlite.prepare("INSERT INTO customers (phone, created_at) VALUES (?1, ?2) RETURNING id");
    const sub = sqlite.prepare(
      "INSERT INTO subscriptions (customer_id, business_id, status, source, consent_at, consent_text, created_at) VALUES (?1, ?2, 'active', 'qr', ?3, 'bench', ?3)",
    );
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const { id } = customer.get(`+1415${String(2000000 + i).padStart(7, "0")}`, now) as { id: number };
      sub.run(id, businessId, now);
      if (i < WARMUP_MESSAGES) sub.run(id, warmupBusinessId, now);
    }
  })();
  sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  console.log(`${fmt(SUBSCRIBERS)} subscribers seeded in ${dir} (${cpus().length} CPUs)`);

  // --- 1. Enqueue ---------------------------------------------------------------------------------------------
  const bareInsert = sqlite.prepare(
    `INSERT INTO deliveries (broadcast_id, customer_id, business_id, channel, to_phone, status, attempts, next_attempt_at)
     SELECT ?1, c.id, s.business_id, s.contact_preference, c.phone, 'Queued', 0, ?3
     FROM subscriptions s JOIN customers c ON c.id = s.customer_id
     WHERE s.business_id = ?2 AND s.status = 'active' ORDER BY s.id`,
  );
  const bareBroadcast = sqlite.prepare(
    "INSERT INTO broadcasts (business_id, created_by, message_text, image_path, total, created_at) VALUES (?1, NULL, ?2, NULL, ?3, ?4) RETURNING id",
  );
  const drop = (id: number) => {
    sqlite.prepare("DELETE FROM deliveries WHERE broadcast_id = ?1").run(id);
    sqlite.prepare("DELETE FROM broadcasts WHERE id = ?1").run(id);
    sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  };
  const triggers = (sqlite.query("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'deliveries'").all() as { name: string; sql: string }[]);
  if (triggers.length !== 3) throw new Error(`expected the 3 counting triggers, found ${triggers.length}`);
  const bareTimes: number[] = [];
  const serviceTimes: number[] = [];
  let broadcastId = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of triggers) sqlite.exec(`DROP TRIGGER ${t.name}`);
    const t0 = performance.now();
    const bareId = sqlite.transaction(() => {
      const id = (bareBroadcast.get(businessId, TEXT, SUBSCRIBERS, Date.now()) as { id: number }).id;
      bareInsert.run(id, businessId, Date.now());
      return id;
    })();
    bareTimes.push(performance.now() - t0);
    drop(bareId);
    for (const t of triggers) sqlite.exec(t.sql);

    const t1 = performance.now();
    const res = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(businessId), messageText: TEXT });
    serviceTimes.push(performance.now() - t1);
    if (!("broadcastId" in res) || res.recipients !== SUBSCRIBERS) throw new Error(`publish wrote ${JSON.stringify(res)}`);
    drop(res.broadcastId);
  }
  // The broadcast to dispatch, written by the service into a table not riddled with the free pages the timed rounds
  // left behind (VACUUM): like a real database, where deliveries are never deleted.
  sqlite.exec("VACUUM");
  // The warm-up broadcast first: its deliveries are claimed first, by the untimed warm-up.
  const warmup = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(warmupBusinessId), messageText: "warm-up" });
  if (!("broadcastId" in warmup)) throw new Error("no warm-up broadcast");
  const queued = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(businessId), messageText: TEXT });
  if (!("broadcastId" in queued)) throw new Error("nothing queued");
  broadcastId = queued.broadcastId;
  sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");

  // --- 1b. The progress read, half of the broadcast sent (then put back for the dispatch) ----------------------------
  const half = `UPDATE deliveries SET status = ?1 WHERE broadcast_id = ?2 AND id % 2 = 0`;
  sqlite.prepare(half).run("Sent", broadcastId);
  const oldCounts = sqlite.prepare("SELECT status, COUNT(*) AS n FROM deliveries WHERE broadcast_id = ?1 GROUP BY status");
  const oldWaiting = sqlite.prepare(
    "SELECT deferred_reason AS reason, COUNT(*) AS n FROM deliveries WHERE broadcast_id = ?1 AND status = 'Queued' AND deferred_reason IN ('quiet_hours', 'daily_limit') GROUP BY deferred_reason",
  );
  const statusNow: number[] = [];
  const statusBefore: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    const summary = ctx.services.broadcasts.status(OPERATOR, broadcastId);
    statusNow.push(performance.now() - t0);
    const t1 = performance.now();
    const rows = oldCounts.all(broadcastId) as { status: string; n: number }[];
    oldWaiting.all(broadcastId);
    statusBefore.push(performance.now() - t1);
    if (i === 0 && (summary.sent !== rows.find((r) => r.status === "Sent")?.n || summary.queued + summary.sent !== SUBSCRIBERS)) {
      throw new Error(`the kept counts ${JSON.stringify(summary)} differ from the rows ${JSON.stringify(rows)}`);
    }
  }
  sqlite.prepare(half).run("Queued", broadcastId);
  const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)]!;
  const walMb = () => {
    try {
      return mb(statSync(join(dir, "nearcast.db-wal")).size);
    } catch {
      return 0;
    }
  };
  // The server's checkpointer thread on this connection, as `serve` runs it: the WAL the writes above left behind
  // (100,000 rows updated twice) is copied, then emptied once nothing has been written for a while.
  const walAfterWrites = walMb();
  const truncatedAt = await (async () => {
    let at = 0;
    const t0 = performance.now();
    const cp = startCheckpointer(sqlite, join(dir, "nearcast.db"), { logger: new MemoryLogger(), onReport: (r) => void (r.kind === "truncated" && !at && (at = performance.now() - t0)) });
    await cp.ready;
    while (!at && performance.now() - t0 < 30_000) await Bun.sleep(50);
    await cp.stop();
    return at;
  })();
  const walAfterIdle = walMb();
  const bareMs = median(bareTimes);
  const serviceMs = median(serviceTimes);
  const enqueueRatio = serviceMs / bareMs;

  /** Part 1's lines: the enqueue, the progress read and the WAL. */
  function enqueueReport(): string {
    const lines: string[] = [];
    lines.push(`enqueue ${fmt(SUBSCRIBERS)} deliveries (median of ${ROUNDS}):`);
    lines.push(`  service publish            ${serviceMs.toFixed(0).padStart(6)} ms   (${serviceTimes.map((t) => t.toFixed(0)).join(", ")})`);
    lines.push(`  bare INSERT ... SELECT     ${bareMs.toFixed(0).padStart(6)} ms   (${bareTimes.map((t) => t.toFixed(0)).join(", ")})`);
    lines.push(`  ratio                      ${enqueueRatio.toFixed(2)}x  (target <= ${TARGET_ENQUEUE}x: ${verdict(enqueueRatio <= TARGET_ENQUEUE)})`);
    lines.push(`GetBroadcastStatus's read, ${fmt(SUBSCRIBERS)} recipients, half sent (200 reads):`);
    lines.push(`  kept counts (broadcast_counts)  median ${median(statusNow).toFixed(3)} ms, p99 ${p99(statusNow).toFixed(3)} ms  (target < 10 ms: ${verdict(p99(statusNow) < 10)})`);
    lines.push(`  COUNT ... GROUP BY (before)     median ${median(statusBefore).toFixed(3)} ms, p99 ${p99(statusBefore).toFixed(3)} ms`);
    lines.push(`  ratio (before / now, median)    ${(median(statusBefore) / median(statusNow)).toFixed(0)}x`);
    lines.push(`WAL file: ${walAfterWrites.toFixed(1)} MB after the writes; ${walAfterIdle.toFixed(1)} MB ${(truncatedAt / 1000).toFixed(1)} s later (the checkpointer's idle TRUNCATE)`);
    return lines.join("\n");
  }
  if (ENQUEUE_ONLY) {
    console.log(enqueueReport());
    // Exiting here skips the finally below: the fake Twilio goes too (it shares this process's stderr).
    fakeProc.kill();
    rmSync(dir, { recursive: true, force: true });
    process.exit(enqueueRatio <= TARGET_ENQUEUE && p99(statusNow) < 10 ? 0 : 1);
  }
  // --- 2. Dispatch: each side in a fresh process of its own (bench/_dispatch.ts), as a server would run it ---------
  ctx.close();
  /** A bench/_dispatch.ts process: one slice per line sent, one JSON answer per slice. */
  async function worker(args: string[]) {
    const proc = Bun.spawn(
      [process.execPath, join(import.meta.dir, "_dispatch.ts"), ...args, "--twilio", JSON.stringify(fake), "--concurrency", String(CONCURRENCY)],
      { stdin: "pipe", stdout: "pipe", stderr: "inherit" },
    );
    const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    const nextLine = async () => {
      while (!buffered.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`bench/_dispatch.ts ${args.join(" ")} exited`);
        buffered += decoder.decode(value);
      }
      const line = buffered.slice(0, buffered.indexOf("\n"));
      buffered = buffered.slice(line.length + 1);
      return line;
    };
    const say = (line: string) => {
      proc.stdin.write(`${line}\n`);
      proc.stdin.flush();
    };
    if ((await nextLine()) !== "ready") throw new Error("worker not ready");
    return {
      async slice(line: string): Promise<{ ms: number; count: number; failures: number }> {
        say(line);
        return JSON.parse(await nextLine());
      },
      async exit(): Promise<number> {
        say("exit");
        const { peakRssMb } = JSON.parse(await nextLine()) as { peakRssMb: number };
        await proc.exited;
        return peakRssMb;
      },
    };
  }
  const fetchSide = await worker(["--mode", "fetch", "--text", TEXT]);
  const dispatchSide = await worker([
    "--mode",
    "dispatcher",
    "--data-dir",
    dir,
    "--broadcast",
    String(broadcastId),
    "--warmup-broadcast",
    String(warmup.broadcastId),
    "--warmup-messages",
    String(WARMUP_MESSAGES),
    ...(COLLECT_EVERY > 0 ? ["--collect-every", String(COLLECT_EVERY)] : []),
  ]);
  // Alternating slices (the order flips each round), so a busy machine weighs on both sides alike.
  const slices = Array.from({ length: DISPATCH_ROUNDS }, (_, i) =>
    i < DISPATCH_ROUNDS - 1 ? Math.floor(SUBSCRIBERS / DISPATCH_ROUNDS) : SUBSCRIBERS - Math.floor(SUBSCRIBERS / DISPATCH_ROUNDS) * (DISPATCH_ROUNDS - 1),
  );
  const fetchRuns: { ms: number; count: number; failures: number }[] = [];
  const dispatchRuns: { ms: number; count: number; failures: number }[] = [];
  let offset = 0;
  for (const [i, n] of slices.entries()) {
    const fetchSlice = async () => fetchRuns.push(await fetchSide.slice(`${n} ${offset}`));
    const dispatchSlice = async () => dispatchRuns.push(await dispatchSide.slice(i === slices.length - 1 ? "rest" : String(n)));
    if (i % 2 === 0) {
      await fetchSlice();
      await dispatchSlice();
    } else {
      await dispatchSlice();
      await fetchSlice();
    }
    offset += n;
  }
  const baselineRss = await fetchSide.exit();
  const dispatchRss = await dispatchSide.exit();
  const sum = (xs: { ms: number }[]) => xs.reduce((t, x) => t + x.ms, 0);
  const baseMs = sum(fetchRuns);
  const baseRate = (fetchRuns.reduce((t, x) => t + x.count, 0) / baseMs) * 1000;
  const dispatchMs = sum(dispatchRuns);
  const dispatched = dispatchRuns.reduce((t, x) => t + x.count, 0);
  const dispatchRate = (dispatched / dispatchMs) * 1000;
  const dispatchRatio = dispatchRate / baseRate;
  const run = { count: dispatched, failures: dispatchRuns.reduce((t, x) => t + x.failures, 0) };
  // (The warm-up may have sent a few of the broadcast's messages: those are not in the timed slices.)

  const check = createContext(config, { logger: new MemoryLogger() });
  // --- Checks -------------------------------------------------------------------------------------------------
  const counts = check.repos.deliveries.counts(broadcastId);
  const distinctSids = (check.db.$client.prepare("SELECT COUNT(DISTINCT provider_id) AS n FROM deliveries WHERE broadcast_id = ?1").get(broadcastId) as { n: number }).n;
  const created = ((await (await fetch(fake.countUrl)).json()) as { created: number }).created;
  const expectedCreated = 500 + WARMUP_MESSAGES + SUBSCRIBERS * 2;
  const checks = [
    [`every delivery Sent (${fmt(counts.Sent)} of ${fmt(SUBSCRIBERS)})`, counts.Sent === SUBSCRIBERS],
    [`each with its own Twilio sid (${fmt(distinctSids)})`, distinctSids === SUBSCRIBERS],
    [`the fake created every message (${fmt(created)} of ${fmt(expectedCreated)})`, created === expectedCreated],
    [`no failed baseline request (${fetchRuns.reduce((t, x) => t + x.failures, 0)})`, fetchRuns.every((x) => x.failures === 0)],
    [`the dispatcher timed ${fmt(run.count)} sends, none failed (${run.failures})`, run.failures === 0 && run.count > SUBSCRIBERS * 0.9],
  ] as const;
  ok = checks.every(([, pass]) => pass);

  console.log("");
  console.log(enqueueReport());
  console.log(`dispatch ${fmt(SUBSCRIBERS)} messages, rate unlimited, ${CONCURRENCY} in flight:`);
  const perSlice = (runs: { ms: number; count: number }[]) => runs.map((r) => fmt((r.count / r.ms) * 1000)).join(", ");
  console.log(`  dispatcher (Twilio adapter)${fmt(dispatchRate).padStart(6)} msg/s (${(dispatchMs / 1000).toFixed(1)} s; slices ${perSlice(dispatchRuns)})`);
  console.log(`  bare fetch loop            ${fmt(baseRate).padStart(6)} msg/s (${(baseMs / 1000).toFixed(1)} s; slices ${perSlice(fetchRuns)})`);
  console.log(`  ratio                      ${dispatchRatio.toFixed(2)}x  (target >= ${TARGET_DISPATCH}x: ${verdict(dispatchRatio >= TARGET_DISPATCH)})`);
  console.log(
    `peak RSS of the dispatching process ${dispatchRss.toFixed(0)} MB  (target < ${TARGET_RSS_MB} MB: ${verdict(dispatchRss < TARGET_RSS_MB)}); ` +
      `the bare fetch loop's process ${baselineRss.toFixed(0)} MB; this process (seeding, enqueue) ${mb(peakRss).toFixed(0)} MB`,
  );
  for (const [what, pass] of checks) console.log(`${pass ? "ok  " : "FAIL"} ${what}`);
  console.log(
    JSON.stringify({
      bench: "broadcast",
      subscribers: SUBSCRIBERS,
      concurrency: CONCURRENCY,
      collectEvery: COLLECT_EVERY,
      enqueue: { serviceMs, bareMs, ratio: enqueueRatio },
      status: { medianMs: median(statusNow), p99Ms: p99(statusNow), beforeMedianMs: median(statusBefore) },
      walMb: { afterWrites: walAfterWrites, afterIdle: walAfterIdle, truncatedAfterMs: truncatedAt },
      dispatch: { perSecond: dispatchRate, baselinePerSecond: baseRate, ratio: dispatchRatio },
      peakRssMb: { dispatcher: dispatchRss, fetchLoop: baselineRss, enqueue: mb(peakRss) },
      ok,
    }),
  );
  check.close();
} finally {
  clearInterval(sampler);
  fakeProc.kill();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
