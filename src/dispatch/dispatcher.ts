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
  STATUS_WEBHOOK_PATH,
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

/** 1 s, 2 s, 4 s ... after the n-th attempt, at most 10 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, Math.min(30, attempts - 1)));
}

/** The status callback of one delivery: the webhook finds the row by this id even when the send's answer was lost. */
export function statusCallbackPath(deliveryId: number): string {
  return `${STATUS_WEBHOOK_PATH}?delivery=${deliveryId}`;
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

  /** Writes one send outcome. Synchronous: one UPDATE each. */
  function record(row: ClaimedDelivery, outcome: SendOutcome): void {
    const now = sched.now();
    switch (outcome.kind) {
      case "sent":
        consecutiveUnavailable = 0;
        repos.deliveries.recordSent(row.id, outcome.providerId, outcome.status, outcome.providerStatus, now);
        stats.sent++;
        return;
      case "rate_limited": {
        consecutiveUnavailable = 0;
        const wait = outcome.retryAfterMs ?? backoffMs(row.attempts);
        // Everyone waits: the provider said we are going too fast.
        pacer.pause(now + (outcome.retryAfterMs ?? 1000));
        repos.deliveries.requeue(row.id, now + wait, now, `Rate limited by the provider; retrying: ${outcome.message}`, outcome.code);
        stats.requeued++;
        return;
      }
      case "unavailable": {
        consecutiveUnavailable++;
        pacer.pause(now + Math.min(30_000, backoffMs(consecutiveUnavailable)));
        if (row.attempts >= MAX_ATTEMPTS) {
          repos.deliveries.markFailed(row.id, null, `Gave up after ${row.attempts} attempts: ${outcome.message}`, now);
          stats.failed++;
        } else {
          repos.deliveries.requeue(row.id, now + backoffMs(row.attempts), now, outcome.message, null);
          stats.requeued++;
        }
        return;
      }
      case "uncertain":
        repos.deliveries.markUncertain(row.id, Math.max(now, row.claimedAt + reconcileAfterMs), now, outcome.message);
        stats.uncertain++;
        return;
      case "opted_out":
        repos.deliveries.markFailed(row.id, OPTED_OUT_CODE, outcome.message, now);
        stats.optedOut++;
        try {
          options.onOptedOut?.(row.customerId, new Date(now));
        } catch (e) {
          logger.error(`dispatcher: opting out customer ${row.customerId} failed: ${errText(e)}`);
        }
        return;
      case "failed":
        repos.deliveries.markFailed(row.id, outcome.code, outcome.message, now);
        stats.failed++;
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
    while (!stopping) {
      const now = sched.now();
      if (now - lastHousekeeping >= HOUSEKEEPING_EVERY_MS) {
        housekeeping(now);
        lastHousekeeping = now;
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
      const want = Math.min(batchSize, concurrency - inflight.size, pacer.capacity(claimAheadMs));
      let claimed: ClaimedDelivery[];
      try {
        claimed = repos.deliveries.claim(now, want);
      } catch (e) {
        logger.error(`dispatcher: claiming failed: ${errText(e)}`);
        await sleep(1000);
        continue;
      }
      if (claimed.length === 0) {
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
      const toSend = claimed.filter((c) => c.status === "Sending");
      stats.skipped += claimed.length - toSend.length;
      for (let i = 0; i < toSend.length; i++) {
        const startAt = pacer.take(sched.now());
        if (startAt > sched.now()) await sleep(startAt - sched.now());
        if (stopping) {
          const released = repos.deliveries.release(
            toSend.slice(i).map((r) => r.id),
            sched.now(),
          );
          if (released > 0) logger.info(`dispatcher: released ${released} claimed message(s) back to the queue`);
          break;
        }
        startSend(toSend[i]!);
      }
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
