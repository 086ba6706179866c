// Issue 10, item 4 (the dispatcher's part): a broadcast caught by a full disk resumes by itself when space returns.
// The dispatcher runs on the real deliveries repo wrapped so that every write throws SQLite's SQLITE_FULL while the
// "disk" is full (reads keep working, as they do in SQLite), on a virtual clock: full from the start, then again
// mid-broadcast while answers are on their way. Every delivery ends Sent exactly once, nothing is marked Failed,
// the dispatcher never stops, and each episode is logged once (not once per try).
import { afterEach, beforeEach, expect, test } from "bun:test";
import { createDispatcher, type Dispatcher } from "../../src/dispatch/dispatcher.ts";
import { DISK_FULL_MAX_RETRY_MS } from "../../src/dispatch/disk-wait.ts";
import type { DispatchMessenger, DispatchStore } from "../../src/dispatch/store.ts";
import { nextTurn } from "../../src/lib/next-turn.ts";
import type { OutboundMessage, SendOutcome } from "../../src/messaging/messenger.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { until, VirtualScheduler } from "../helpers/virtual-scheduler.ts";
import { queuedBroadcast } from "../helpers/worlds.ts";

let ctx: TestContext;
let sched: VirtualScheduler;
let running: Dispatcher | null = null;

beforeEach(() => {
  ctx = testContext({ NEARCAST_PUBLIC_URL: "https://deals.example.com" });
  sched = new VirtualScheduler(ctx.clock);
});

afterEach(async () => {
  await running?.stop();
  running = null;
  ctx.close();
});

const READS = new Set<keyof DispatchStore>(["dueUncertain", "nextDueAt", "broadcastMessage"]);

function diskFullError(): Error {
  // What bun:sqlite throws when a write finds no room.
  return Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
}

/** The deliveries repo, with every write failing while `full()` says so. */
function storeOnDisk(full: () => boolean): DispatchStore & { refused: number } {
  const real = ctx.repos.deliveries;
  const wrapped = { refused: 0 } as DispatchStore & { refused: number };
  for (const key of Object.keys(real) as Array<keyof typeof real>) {
    const fn = real[key] as (...args: unknown[]) => unknown;
    (wrapped as unknown as Record<string, unknown>)[key] = (...args: unknown[]) => {
      if (!READS.has(key as keyof DispatchStore) && full()) {
        wrapped.refused++;
        throw diskFullError();
      }
      return fn(...args);
    };
  }
  return wrapped;
}

test("a full disk pauses the broadcast twice (at start, then mid-send with answers in flight): every delivery ends Sent exactly once, no restart", async () => {
  const n = 40;
  const { subs, broadcastId } = await queuedBroadcast(ctx, n, { text: "Half-price soup until 3pm" });

  const start = sched.now();
  let fullUntil = start + 5_000; // full when the dispatcher starts
  let refilled = false;
  const full = () => sched.now() < fullUntil;
  const store = storeOnDisk(full);

  const sends: string[] = [];
  const messenger: DispatchMessenger = {
    name: "sandbox",
    async send(msg: OutboundMessage): Promise<SendOutcome> {
      sends.push(msg.to);
      // The disk fills up while the 10th request is at the provider: its answer (and those after) find no room.
      if (sends.length === 10 && !refilled) {
        refilled = true;
        fullUntil = sched.now() + 40_000;
      }
      // The answer comes on a later turn of the event loop, as a provider's would: other sends are in flight meanwhile.
      await nextTurn();
      return { kind: "sent", providerId: `SM${sends.length}`, status: "Queued", providerStatus: "queued" };
    },
    async findRecent() {
      throw new Error("nothing is uncertain in this test");
    },
  };
  running = createDispatcher({ store, messenger, logger: ctx.logger, rate: 5, scheduler: sched, reconcileAfterMs: 30_000 });
  expect(running.start()).toBe("dispatching");

  await until(() => ctx.repos.broadcasts.findById(broadcastId)?.completedAt != null, 20_000, "the broadcast to complete");
  expect(running.state).toBe("dispatching");

  // Both episodes happened: writes were refused, the first before anything was sent.
  expect(refilled).toBe(true);
  expect(store.refused).toBeGreaterThan(2);
  // Every subscriber got exactly one message, and every row says Sent after one attempt.
  expect(sends.toSorted()).toEqual(subs.map((s) => s.customer.phone).toSorted());
  const rows = ctx.repos.deliveries.listByBroadcast(broadcastId);
  expect(rows.map((r) => r.status)).toEqual(Array(n).fill("Sent"));
  expect(rows.every((r) => r.attempts === 1 && r.providerId?.startsWith("SM"))).toBe(true);

  // One line when each episode starts and one when it ends; no line per refused write.
  const lines = ctx.logger.lines;
  expect(lines.filter((l) => l.includes("the disk is full or read-only"))).toHaveLength(2);
  expect(lines.filter((l) => l.includes("the disk has room again; sending resumed"))).toHaveLength(2);
  expect(lines.filter((l) => /claiming failed|housekeeping failed|not recorded|stopped by an error|could not be released/.test(l))).toEqual([]);
  // The retries backed off (1 s, 2 s, ... up to 30 s), none longer than the ceiling.
  const diskSleeps = sched.sleeps.filter((ms) => ms >= 1000);
  expect(Math.max(...diskSleeps)).toBeLessThanOrEqual(DISK_FULL_MAX_RETRY_MS);
  expect(diskSleeps).toContain(DISK_FULL_MAX_RETRY_MS);
});
