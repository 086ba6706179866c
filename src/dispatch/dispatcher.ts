// The broadcast dispatcher: sends the outbox (deliveries) through the Messenger, paced to NEARCAST_SEND_RATE.
//
// - Claims due Queued deliveries in short synchronous transactions (one UPDATE ... RETURNING: Sending, or Skipped
//   when the customer stopped being an active subscriber), and calls messenger.send() OUTSIDE any transaction.
// - Paces starts with a Pacer on an injected Scheduler; sends overlap, at most `concurrency` at a time.
// - Records each outcome: sent -> Sent (+ provider id); rate_limited -> Queued again after Retry-After (or an
//   exponential backoff), and every start waits as long; unavailable -> Queued again with backoff (it never reached
//   the provider); uncertain (5xx, timeout) -> Uncertain, reconciled later; opted_out (21610) -> Failed, the customer
//   opted out everywhere (onOptedOut), never retried; failed -> Failed with the provider's code and message.
// - Uncertain deliveries are reconciled: by the status callback (its URL carries ?delivery=<id>; the webhooks move the
//   row), or after `reconcileAfterMs` by messenger.findRecent(to, body, claimedAt): found -> Sent/Delivered/Failed as
//   the provider says; not found -> Queued again (the provider has no such message); provider unreachable -> asked
//   again later. Never resent blindly.
// - Restart (also after kill -9): rows still Sending were in flight when the old process died; they become
//   Uncertain and are reconciled the same way. Only a request that was on the wire at the kill can be doubtful.
// - stop(): stops claiming, waits up to `stopGraceMs` for sends in flight, and releases claimed rows that were not
//   handed to the provider yet back to Queued.
// - One dispatcher per data directory (lock.ts). A second one stands by and takes over when the lock frees.
import type { Logger } from "../lib/logger.ts";
import {
  type Channel,
  type Messenger,
  MessengerUnavailableError,
  type OutboundMessage,
  type SendOutcome,
  statusCallbackPath,
} from "../messaging/messenger.ts";
import type { BroadcastRow } from "../repos/broadcasts.ts";
import type { ClaimedDelivery, DeliveryChannel, DeliveryRow } from "../repos/deliveries.ts";
import { OPTED_OUT_CODE } from "../repos/deliveries.ts";
import type { Repos } from "../repos/index.ts";
import { type DispatcherLock, tryLock } from "./lock.ts";
import { Pacer } from "./pacer.ts";
import { realScheduler, type Scheduler } from "./scheduler.ts";

/** Sends that never reached the provider (unavailable) or lost their answer are tried at most this often. */
export const MAX_ATTEMPTS = 10;
/** Default wait before an Uncertain delivery is looked up at the provider (its status callback may come first). */
export const DEFAULT_RECONCILE_AFTER_MS = 30_000;
/** How long stop() waits for sends in flight. */
export const DEFAULT_STOP_GRACE_MS = 10_000;
const MAX_BACKOFF_MS = 10 * 60_000;
const RECONCILE_LEASE_MS = 60_000;
const HOUSEKEEPING_EVERY_MS = 1_000;
/** Longest time an outcome waits for its group commit, and the most outcomes one commit takes. */
const FLUSH_EVERY_MS = 50;
const FLUSH_AT_OUTCOMES = 1024;
/**
 * A full garbage collection after this many sends. Sending fast, the runtime grows its heap rather than collect,
 * and memory it frees later stays with the process: this holds the peak RSS of a 100,000-message broadcast well
 * under 100 MB (bench/broadcast.ts) for a few ms every few hundred ms at full speed, and nothing at shop rates.
 */
export const COLLECT_EVERY_SENDS = 5000;

/** 1 s, 2 s, 4 s ... after the n-th attempt, at most 10 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, Math.min(30, attempts - 1)));
}

const channelOf = (c: DeliveryChannel): Channel => (c === "WhatsApp" ? "whatsapp" : "sms");

export interface DispatcherOptions {
  repos: Repos;
  messenger: Messenger;
  logger: Logger;
  /** Messages per second; Infinity = unlimited. */
  rate: number;
  scheduler?: Scheduler;
  /** Sends (and provider look-ups) in flight at once. Default: the rate, between 4 and 64 (64 when unlimited). */
  concurrency?: number;
  /** <dataDir>/dispatcher.lock; null = no lock (an in-memory test database). */
  lockPath?: string | null;
  /** When the lock is held elsewhere: wait for it (retrying every lockRetryMs) instead of giving up. */
  standby?: boolean;
  lockRetryMs?: number;
  reconcileAfterMs?: number;
  stopGraceMs?: number;
  /** Claims cover the starts due within this horizon (default 100 ms). */
  claimAheadMs?: number;
  /** Longest sleep when there is nothing to do (default 500 ms). */
  idlePollMs?: number;
  /** At most this many rows per claim (default 100). */
  batchSize?: number;
  /** Twilio 21610: the customer opted out of everything sent from our number (src/services/opt-outs.ts). */
  onOptedOut?: (customerId: number, at: Date) => void;
  /** Runs every `collectEverySends` sends (default COLLECT_EVERY_SENDS); default a full Bun.gc. */
  collectGarbage?: () => void;
  collectEverySends?: number;
}

export type DispatcherState = "idle" | "dispatching" | "standby" | "stopped";

export interface DispatcherStats {
  started: number;
  sent: number;
  failed: number;
  optedOut: number;
  requeued: number;
  uncertain: number;
  reconciled: number;
  skipped: number;
  /** Deliveries found Sending at start: in flight when the previous dispatcher died. */
  recovered: number;
}

export interface Dispatcher {
  /** Takes the lock and starts sending. "standby": another process dispatches (with `standby`, this one waits to
   * take over); without `standby` it then does nothing. */
  start(): "dispatching" | "standby";
  stop(): Promise<void>;
  readonly state: DispatcherState;
  readonly stats: DispatcherStats;
  /** Resolves once this dispatcher holds the lock and runs (immediately if it does). */
  whenDispatching(): Promise<void>;
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { repos, messenger, logger } = options;
  const sched = options.scheduler ?? realScheduler;
  const pacer = new Pacer(options.rate);
  const concurrency = Math.max(
    1,
    Math.floor(options.concurrency ?? (Number.isFinite(options.rate) ? Math.min(64, Math.max(4, Math.ceil(options.rate))) : 64)),
  );
  const reconcileAfterMs = options.reconcileAfterMs ?? DEFAULT_RECONCILE_AFTER_MS;
  const stopGraceMs = options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS;
  const claimAheadMs = options.claimAheadMs ?? 100;
  const idlePollMs = options.idlePollMs ?? 500;
  const batchSize = options.batchSize ?? 100;
  const lockRetryMs = options.lockRetryMs ?? 5_000;
  const collectGarbage = options.collectGarbage ?? (() => Bun.gc(true));
  const collectEverySends = Math.max(1, options.collectEverySends ?? COLLECT_EVERY_SENDS);
  let sendsSinceCollect = 0;

  const stats: DispatcherStats = { started: 0, sent: 0, failed: 0, optedOut: 0, requeued: 0, uncertain: 0, reconciled: 0, skipped: 0, recovered: 0 };
  let state: DispatcherState = "idle";
  let lock: DispatcherLock | null = null;
  let stopping = false;
  const abort = new AbortController();
  let main: Promise<void> | null = null;
  const inflight = new Set<Promise<void>>();
  let slotWaiters: Array<() => void> = [];
  const reconciling = new Set<number>();
  const cache = new Map<number, BroadcastRow | null>();
  let consecutiveUnavailable = 0;
  let dispatchingWaiters: Array<() => void> = [];

  const sleep = (ms: number) => sched.sleep(Math.max(0, ms), abort.signal);
  const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

  function notifySlot(): void {
    const waiters = slotWaiters;
    slotWaiters = [];
    for (const w of waiters) w();
  }

  function waitForSlot(): Promise<void> {
    if (stopping) return Promise.resolve();
    return new Promise((resolve) => slotWaiters.push(resolve));
  }

  function track(task: Promise<void>): void {
    const t = task
      .catch((e) => logger.error(`dispatcher: ${errText(e)}`))
      .finally(() => {
        inflight.delete(t);
        notifySlot();
      });
    inflight.add(t);
  }

  function broadcastOf(id: number): BroadcastRow | null {
    if (!cache.has(id)) {
      if (cache.size > 1000) cache.clear();
      cache.set(id, repos.broadcasts.findById(id) ?? null);
    }
    return cache.get(id) ?? null;
  }

  function message(row: { id: number; toPhone: string; channel: DeliveryChannel }, b: BroadcastRow): OutboundMessage {
    return {
      to: row.toPhone,
      channel: channelOf(row.channel),
      body: b.messageText,
      ...(b.imagePath ? { mediaUrl: b.imagePath } : {}),
      statusCallback: statusCallbackPath(row.id),
    };
  }

  // Outcomes are written in groups (group commit): every FLUSH_EVERY_MS, or at FLUSH_AT_OUTCOMES outcomes, in one
  // transaction (with the next claim when the group is big), instead of one commit per message: the provider ids
  // are random, so each commit writes many index pages to the WAL, and that was most of the disk work. A crash
  // before a group is written leaves its rows Sending: they are reconciled at the next start (found at the
  // provider -> Sent), never resent blindly. The in-flight window grows by at most FLUSH_EVERY_MS of sends.
  let pendingWrites: Array<() => void> = [];
  let afterWrites: Array<() => void> = [];
  let flushTimer: ReturnType<typeof setTimeout> | null = null;

  /** Writes the pending outcomes; `alsoInside` runs in the same transaction (a claim) and its result is returned. */
  function flush<T>(alsoInside?: () => T): T | undefined {
    if (flushTimer) {
      clearTimeout(flushTimer);
      flushTimer = null;
    }
    if (pendingWrites.length === 0 && afterWrites.length === 0) return alsoInside?.();
    const writes = pendingWrites;
    const after = afterWrites;
    pendingWrites = [];
    afterWrites = [];
    let result: T | undefined;
    try {
      result = repos.transaction(() => {
        for (const w of writes) w();
        return alsoInside?.();
      });
    } catch (e) {
      // One bad write must not lose the others: write them one by one.
      logger.error(`dispatcher: recording results failed (${errText(e)}); retrying one by one`);
      for (const w of writes) {
        try {
          w();
        } catch (err) {
          logger.error(`dispatcher: a result was not recorded (the row stays Sending and is checked at the next start): ${errText(err)}`);
        }
      }
      if (alsoInside) result = alsoInside();
    }
    for (const f of after) {
      try {
        f();
      } catch (e) {
        logger.error(`dispatcher: ${errText(e)}`);
      }
    }
    return result;
  }

  function defer(write: () => void, after?: () => void): void {
    pendingWrites.push(write);
    if (after) afterWrites.push(after);
    if (pendingWrites.length >= FLUSH_AT_OUTCOMES) flush();
    else flushTimer ??= setTimeout(() => flush(), FLUSH_EVERY_MS);
  }

  /** Takes one send outcome: pacing and counters at once, the row's UPDATE in the next group commit. */
  function record(row: ClaimedDelivery, outcome: SendOutcome): void {
    const now = sched.now();
    const d = repos.deliveries;
    switch (outcome.kind) {
      case "sent":
        consecutiveUnavailable = 0;
        stats.sent++;
        defer(() => d.recordSent(row.id, outcome.providerId, outcome.status, outcome.providerStatus, now));
        return;
      case "rate_limited": {
        consecutiveUnavailable = 0;
        const wait = outcome.retryAfterMs ?? backoffMs(row.attempts);
        // Everyone waits: the provider said we are going too fast.
        pacer.pause(now + (outcome.retryAfterMs ?? 1000));
        stats.requeued++;
        defer(() => d.requeue(row.id, now + wait, now, `Rate limited by the provider; retrying: ${outcome.message}`, outcome.code));
        return;
      }
      case "unavailable": {
        consecutiveUnavailable++;
        pacer.pause(now + Math.min(30_000, backoffMs(consecutiveUnavailable)));
        if (row.attempts >= MAX_ATTEMPTS) {
          stats.failed++;
          defer(() => d.markFailed(row.id, null, `Gave up after ${row.attempts} attempts: ${outcome.message}`, now));
        } else {
          stats.requeued++;
          defer(() => d.requeue(row.id, now + backoffMs(row.attempts), now, outcome.message, null));
        }
        return;
      }
      case "uncertain":
        stats.uncertain++;
        defer(() => d.markUncertain(row.id, Math.max(now, row.claimedAt + reconcileAfterMs), now, outcome.message));
        return;
      case "opted_out":
        stats.optedOut++;
        defer(
          () => d.markFailed(row.id, OPTED_OUT_CODE, outcome.message, now),
          () => options.onOptedOut?.(row.customerId, new Date(now)),
        );
        return;
      case "failed":
        stats.failed++;
        defer(() => d.markFailed(row.id, outcome.code, outcome.message, now));
        return;
    }
  }

  function startSend(row: ClaimedDelivery): void {
    const b = broadcastOf(row.broadcastId);
    if (!b) {
      repos.deliveries.markFailed(row.id, null, "The broadcast no longer exists", sched.now());
      return;
    }
    stats.started++;
    sendsSinceCollect++;
    track(
      (async () => {
        let outcome: SendOutcome;
        try {
          outcome = await messenger.send(message(row, b));
        } catch (e) {
          // The port promises never to throw; if it did, the request may have left: reconcile, never resend blindly.
          outcome = { kind: "uncertain", message: `send failed unexpectedly: ${errText(e)}` };
        }
        record(row, outcome);
      })(),
    );
  }

  async function reconcile(row: DeliveryRow): Promise<void> {
    const b = broadcastOf(row.broadcastId);
    if (!b) return;
    const since = new Date(row.claimedAt ?? row.updatedAt ?? sched.now());
    try {
      const found = await messenger.findRecent({ to: row.toPhone, channel: channelOf(row.channel), body: b.messageText }, since);
      const now = sched.now();
      if (found) {
        repos.deliveries.resolveFound(row.id, found, now);
        stats.reconciled++;
        logger.info(`dispatcher: delivery ${row.id} was accepted by the provider after all (${found.providerId}); not sending it again`);
      } else if (row.attempts >= MAX_ATTEMPTS) {
        repos.deliveries.markFailed(row.id, null, `Gave up after ${row.attempts} attempts: ${row.errorMessage ?? "no answer"}`, now);
        stats.failed++;
      } else {
        repos.deliveries.requeue(row.id, now, now, "The provider has no such message; sending again", null);
        stats.requeued++;
      }
    } catch (e) {
      const now = sched.now();
      const why = e instanceof MessengerUnavailableError ? e.message : errText(e);
      repos.deliveries.postpone(row.id, now + Math.min(MAX_BACKOFF_MS, reconcileAfterMs), now, `Could not check with the provider yet: ${why}`);
    } finally {
      reconciling.delete(row.id);
    }
  }

  /** Completes finished broadcasts and starts look-ups of Uncertain deliveries that are due. */
  function housekeeping(now: number): void {
    flush();
    try {
      for (const id of repos.deliveries.completeFinished(now)) {
        cache.delete(id);
        logger.info(`dispatcher: broadcast ${id} completed`);
      }
      const free = concurrency - inflight.size;
      if (free <= 0) return;
      for (const row of repos.deliveries.dueUncertain(now, free)) {
        if (reconciling.has(row.id)) continue;
        reconciling.add(row.id);
        // A lease: the row is not due again while this look-up runs.
        repos.deliveries.postpone(row.id, now + RECONCILE_LEASE_MS, now, row.errorMessage ?? "Checking with the provider");
        track(reconcile(row));
      }
    } catch (e) {
      logger.error(`dispatcher: housekeeping failed: ${errText(e)}`);
    }
  }

  async function run(): Promise<void> {
    state = "dispatching";
    await dispatch();
  }

  async function dispatch(): Promise<void> {
    for (const w of dispatchingWaiters.splice(0)) w();
    const recovered = repos.deliveries.recoverInFlight(sched.now(), reconcileAfterMs);
    stats.recovered += recovered.length;
    if (recovered.length > 0) {
      logger.warn(
        `dispatcher: ${recovered.length} message(s) were being sent when the previous dispatcher stopped; ` +
          "they will be checked with the provider, not sent again blindly",
      );
    }
    let lastHousekeeping = Number.NEGATIVE_INFINITY;
    // Claimed rows waiting for their start: up to one claim-ahead horizon when paced; when unlimited, up to
    // `batchSize` ahead, refilled once half of `concurrency` is left (a claim is one transaction for many rows).
    const ready: ClaimedDelivery[] = [];
    const highWater = pacer.unlimited ? Math.max(concurrency, batchSize) : Math.min(concurrency, pacer.capacity(claimAheadMs));
    const lowWater = pacer.unlimited ? Math.floor(concurrency / 2) : 0;
    while (!stopping) {
      const now = sched.now();
      if (now - lastHousekeeping >= HOUSEKEEPING_EVERY_MS) {
        housekeeping(now);
        lastHousekeeping = now;
      }
      // Claim when a start is due now (paced: right at its slot, so nothing waits long in Sending).
      const slot = pacer.next(now);
      if (ready.length === 0 && slot > now) {
        await sleep(Math.min(slot - now, idlePollMs));
        continue;
      }
      if (sendsSinceCollect >= collectEverySends) {
        sendsSinceCollect = 0;
        collectGarbage();
      }
      if (ready.length <= lowWater) {
        const want = Math.min(batchSize, highWater - ready.length);
        let claimed: ClaimedDelivery[] = [];
        try {
          // A big group of outcomes goes in the claim's transaction; a small one waits for its timer (commits with
          // many random provider ids are what costs: fewer, larger ones write fewer pages in all).
          claimed =
            pendingWrites.length >= FLUSH_AT_OUTCOMES / 4
              ? (flush(() => repos.deliveries.claim(now, want)) ?? [])
              : repos.deliveries.claim(now, want);
        } catch (e) {
          logger.error(`dispatcher: claiming failed: ${errText(e)}`);
          await sleep(1000);
          continue;
        }
        for (const c of claimed) {
          if (c.status === "Sending") ready.push(c);
          else stats.skipped++;
        }
        if (claimed.length > 0 && ready.length === 0) continue; // all skipped: claim again
      }
      if (ready.length === 0) {
        // Nothing to send now: settle what is finished, look up uncertain rows, sleep until something is due.
        housekeeping(now);
        lastHousekeeping = now;
        let next: number | null = null;
        try {
          next = repos.deliveries.nextDueAt();
        } catch {
          next = null;
        }
        const wait = next === null ? idlePollMs : Math.min(idlePollMs, Math.max(10, next - now));
        if (inflight.size > 0) await Promise.race([sleep(wait), waitForSlot()]);
        else await sleep(wait);
        continue;
      }
      if (inflight.size >= concurrency) {
        await waitForSlot();
        continue;
      }
      const at = pacer.next(now);
      if (at > now) {
        await sleep(at - now);
        continue;
      }
      pacer.take(now);
      startSend(ready.shift()!);
    }
    // Stopping: claimed rows that were not handed to the provider go back to the queue.
    flush();
    if (ready.length > 0) {
      const released = repos.deliveries.release(
        ready.map((r) => r.id),
        sched.now(),
      );
      if (released > 0) logger.info(`dispatcher: released ${released} claimed message(s) back to the queue`);
    }
  }

  function launch(): void {
    main = run().catch((e) => {
      logger.error(`dispatcher stopped by an error: ${errText(e)}`);
    });
  }

  return {
    get state() {
      return state;
    },
    stats,

    start() {
      if (state !== "idle") throw new Error("dispatcher already started");
      if (options.lockPath) {
        lock = tryLock(options.lockPath);
        if (!lock) {
          state = "standby";
          if (options.standby) {
            logger.info("dispatcher: another process is sending messages for this data directory; standing by to take over");
            main = (async () => {
              while (!stopping) {
                await sleep(lockRetryMs);
                if (stopping) return;
                lock = tryLock(options.lockPath!);
                if (lock) {
                  logger.info("dispatcher: took over sending messages");
                  await run();
                  return;
                }
              }
            })().catch((e) => logger.error(`dispatcher stopped by an error: ${errText(e)}`));
          }
          return "standby";
        }
      }
      const rate = Number.isFinite(options.rate) ? `${options.rate} message(s)/second` : "no rate limit";
      logger.info(`dispatcher: sending messages (${rate}, up to ${concurrency} at a time, via ${messenger.name})`);
      launch();
      return "dispatching";
    },

    async stop() {
      if (state === "stopped") return;
      stopping = true;
      abort.abort();
      notifySlot();
      for (const w of dispatchingWaiters.splice(0)) w();
      await main;
      if (inflight.size > 0) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          Promise.allSettled([...inflight]),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, stopGraceMs);
          }),
        ]);
        clearTimeout(timer);
        if (inflight.size > 0) {
          logger.warn(`dispatcher: ${inflight.size} send(s) still unanswered at shutdown; they will be checked at the next start`);
        }
      }
      flush();
      lock?.release();
      lock = null;
      state = "stopped";
    },

    whenDispatching() {
      if (state === "dispatching" || state === "stopped") return Promise.resolve();
      return new Promise((resolve) => dispatchingWaiters.push(resolve));
    },
  };
}
