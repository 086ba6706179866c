// Issue 10, item 5: the claim is on disk before the provider sees the request. A power cut cannot be simulated
// honestly from user space (a kill -9 keeps the page cache), so this watches the BUILT executable's system calls
// instead: `serve` runs under strace (-f: every thread; -yy: each descriptor with its file or TCP peer) while it
// sends a broadcast through the Twilio adapter to the fake Twilio. For every request that reaches the fake (a write
// to its TCP port carrying the recipient's number) the WAL has been fsynced since its last write: whatever the claim
// wrote (the row as Sending) was on disk before the request left. With synchronous=NORMAL the WAL is only synced at
// checkpoints, and this fails on the first send. The server is paced (5 msg/s, one claim per send) so no other
// write (an answer being recorded) falls between a claim and its send.
import { Database } from "bun:sqlite";
import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { OPERATOR } from "../../src/services/principal.ts";
import { fakeTwilioEnv, startBinary } from "../helpers/server.ts";
import { seedShop } from "../helpers/seed-shop.ts";
import { useFakeTwilioBinary } from "../helpers/smoke-fake-twilio-binary.ts";
import { until } from "../helpers/until.ts";

setDefaultTimeout(120_000);

const RECIPIENTS = 12;
const RATE = 5;
const TEXT = "Durable claims: 2 croissants for $3 until noon!";
const SMS_FROM = "+15550001111";
const STRACE = "/usr/bin/strace";

const world = useFakeTwilioBinary("nearcast-durable-");

const phoneOf = (i: number) => `+1415${String(4000000 + i)}`;

/** A business with RECIPIENTS subscribers and one broadcast to them, written before the server starts. */
function seedBroadcast(): Promise<number> {
  return seedShop(world.dataDir, { ownerEmail: "durable-owner@example.com", businessName: "Durable Deli", subscribers: RECIPIENTS, firstNumber: 4000000 }, async (ctx, businessId) => {
  const published = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(businessId), messageText: TEXT });
  expect(published).toMatchObject({ recipients: RECIPIENTS });
  return (published as { broadcastId: number }).broadcastId;
  });
}

/** One line of `strace -f -ttt -yy`: "<tid> <time> <call>(<fd><path or peer>, ...". */
interface Call {
  line: number;
  tid: number;
  name: string;
  target: string;
  text: string;
}

function parseTrace(text: string): Call[] {
  const calls: Call[] = [];
  text.split("\n").forEach((raw, line) => {
    // "123 1700000000.123456 pwrite64(7</x/nearcast.db-wal>, "..."..., 4120, 0) = 4120"; unfinished/resumed halves
    // of one call are two lines: the first names the descriptor, which is what is needed here.
    const m = /^(\d+)\s+[\d.]+\s+(\w+)\((\d+)<(.+?)>(?=[,) ])/.exec(raw);
    if (m) calls.push({ line, tid: Number(m[1]), name: m[2]!, target: m[4]!, text: raw });
  });
  return calls;
}

test("each claim is fsynced to the WAL before its request reaches the fake Twilio (strace of the built executable)", async () => {
  const broadcastId = await seedBroadcast();
  const traceFile = join(world.work, "trace.txt");
  const server = await startBinary(fakeTwilioEnv(world.fake, RATE, SMS_FROM), world.dataDir, {
    binary: world.bin,
    wrap: [STRACE, "-f", "-ttt", "-yy", "-s", "4096", "-o", traceFile, "-e", "trace=fsync,fdatasync,pwrite64,write,writev,sendto,sendmsg,connect"],
  });
  const { proc, log } = server;

  const db = new Database(join(world.dataDir, "nearcast.db"));
  db.exec("PRAGMA busy_timeout = 5000");
  try {
    await until(
      () => (db.query("SELECT completed_at FROM broadcasts WHERE id = ?1").get(broadcastId) as { completed_at: number | null }).completed_at !== null,
      60_000,
      "the broadcast to complete",
    );
  } finally {
    // strace's own child is the server: SIGTERM it (a graceful stop), and strace exits with it.
    const children = readFileSync(`/proc/${proc.pid}/task/${proc.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    for (const pid of children) process.kill(Number(pid), "SIGTERM");
    await proc.exited;
  }
  const sent = (db.query("SELECT COUNT(*) AS n FROM deliveries WHERE broadcast_id = ?1 AND status = 'Sent'").get(broadcastId) as { n: number }).n;
  db.close();
  expect(sent).toBe(RECIPIENTS);
  expect(world.fake.sends()).toHaveLength(RECIPIENTS);
  expect(log()).toContain("dispatcher: sending messages");

  const fakePort = new URL(world.fake.url).port;
  const calls = parseTrace(readFileSync(traceFile, "utf8"));
  const isWal = (c: Call) => c.target.endsWith("/nearcast.db-wal");
  const isSync = (c: Call) => c.name === "fsync" || c.name === "fdatasync";
  const toFake = (c: Call) => c.target.startsWith("TCP:[") && c.target.endsWith(`:${fakePort}]`) && ["write", "writev", "sendto", "sendmsg"].includes(c.name);

  // Every recipient's request, in the order they left; at each, whether the WAL had unsynced writes.
  const requests: { phone: string; walDirty: boolean; walSyncs: number }[] = [];
  // Only a sync by the thread that wrote counts: the claim's own commit, not the checkpoint thread's (also a sync of
  // the same file, but one that merely happened to come in between).
  let walDirty = false;
  let writer = 0;
  let walSyncs = 0;
  for (const c of calls) {
    if (isWal(c) && c.name === "pwrite64") {
      walDirty = true;
      writer = c.tid;
    } else if (isWal(c) && isSync(c) && c.tid === writer) {
      walDirty = false;
      walSyncs++;
    } else if (toFake(c)) {
      const to = /To=%2B(\d+)/.exec(c.text);
      if (to && c.text.includes("Messages.json")) requests.push({ phone: `+${to[1]}`, walDirty, walSyncs });
    }
  }
  // The trace saw every request the fake received, each recipient's once.
  expect(requests.map((r) => r.phone).sort()).toEqual(Array.from({ length: RECIPIENTS }, (_, i) => phoneOf(i)).sort());
  // Before each request: the WAL fsynced since its last write (the claim's commit among them)...
  expect(requests.filter((r) => r.walDirty)).toEqual([]);
  // ... and claims synced one by one: at this rate a claim takes one row, or two when the loop woke late (a slow
  // strace'd process) and two slots were due; those two were written and synced together, before either left. So
  // the syncs never go back, and the requests ride on at least half as many distinct syncs as there are requests.
  for (let i = 1; i < requests.length; i++) expect(requests[i]!.walSyncs).toBeGreaterThanOrEqual(requests[i - 1]!.walSyncs);
  expect(new Set(requests.map((r) => r.walSyncs)).size).toBeGreaterThanOrEqual(Math.ceil(requests.length / 2));
  console.log(
    `claim durability: ${requests.length} requests to the fake Twilio, each after an fsync of the WAL; ` +
      `${walSyncs} WAL fsyncs in the whole run (${calls.filter((c) => isWal(c) && c.name === "pwrite64").length} WAL writes)`,
  );
});
