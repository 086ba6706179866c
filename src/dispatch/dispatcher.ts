// The broadcast dispatcher: sends the outbox (deliveries) through the messenger, paced to NEARCAST_SEND_RATE.
// Its parts, each in its own file: the send loop (claims and starts sends), the outcome recorder (what each answer
// does to its row), and the reconciler (lost answers, restarts, finished broadcasts). What it needs from the app is
// declared in store.ts. This file runs them: one dispatcher per data directory (the lock; a second one stands by
// and takes over when the lock frees), and stop(): no more claims, up to `stopGraceMs` for the sends under way, and
// claimed rows never handed to the provider go back to Queued.
import type { Logger } from "../lib/logger.ts";
import { BroadcastStarter } from "./broadcast-starter.ts";
import { ChannelGate, DEFAULT_PROBE_EVERY_MS } from "./channel-gate.ts";
import { DiskWait } from "./disk-wait.ts";
import { InFlight } from "./in-flight.ts";
import { OutboundMessages } from "./outbound-messages.ts";
import { OutcomeRecorder } from "./outcome-recorder.ts";
import { Pacer } from "./pacer.ts";
import { Reconciler } from "./reconciler.ts";
import { realScheduler, type Scheduler } from "./scheduler.ts";
import { SendLoop } from "./send-loop.ts";
import { StatusPoller } from "./status-poller.ts";
import type { StatusUpdate } from "../messaging/messenger.ts";
import { type DispatcherStats, emptyStats } from "./stats.ts";
import type { DispatchLock, DispatchMessenger, DispatchStore, PauseStore, TakeLock } from "./store.ts";

export type { DispatcherStats } from "./stats.ts";

/** Default wait before an Uncertain delivery is looked up at the provider (its status callback may come first). */
export const DEFAULT_RECONCILE_AFTER_MS = 30_000;
/** How long stop() waits for sends in flight. */
export const DEFAULT_STOP_GRACE_MS = 10_000;
/** With `collectGarbage` set: it runs after this many sends unless `collectEverySends` says otherwise. */
export const COLLECT_EVERY_SENDS = 5000;

export interface DispatcherOptions {
  store: DispatchStore;
  messenger: DispatchMessenger;
  logger: Logger;
  /** Messages per second; Infinity = unlimited. */
  rate: number;
  scheduler?: Scheduler;
  /** Sends (and provider look-ups) in flight at once. Default: the rate, between 4 and 64 (64 when unlimited). */
  concurrency?: number;
  /** The one-dispatcher lock of the data directory; null or absent = no lock (an in-memory test database). */
  takeLock?: TakeLock | null;
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
  /**
   * The one door to the provider checks every number just before its send: called once per claim, it answers the
   * rule of that moment (the allowed countries may have changed since the number was stored); a number it names a
   * problem for is Skipped with that reason, never sent. Absent: no check.
   */
  numberRule?: () => (phone: string) => string | null;
  /** Twilio 21610: the customer opted out of everything sent from our number (src/services/opt-outs.ts). */
  onOptedOut?: (customerId: number, at: Date) => void;
  /** Where channel pauses are kept (account problems: channel-gate.ts); absent: such sends are retried later. */
  pauses?: PauseStore;
  /** How often a paused channel is probed with one held delivery (default 5 minutes). */
  probeEveryMs?: number;
  /** What a look-up of a message sent without a status callback found, applied as its callback would be (the
   * status-callbacks service). Absent (or a messenger without lookup): such messages are not looked up. */
  onProviderStatus?: (update: StatusUpdate) => void;
  /** The saved public URL of the moment, where a tracked broadcast's short links live (issue 25); absent: none. */
  publicUrl?: () => string | null;
  /** Off unless given: run between sends every `collectEverySends` sends (bench/broadcast.ts may force a GC). */
  collectGarbage?: () => void;
  collectEverySends?: number;
}

export type DispatcherState = "idle" | "dispatching" | "standby" | "stopped";

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
  return new LockedDispatcher(options);
}

/** The default number of sends in flight: the rate, between 4 and 64 (64 when unlimited). */
function concurrencyFor(options: DispatcherOptions): number {
  const byRate = Number.isFinite(options.rate) ? Math.min(64, Math.max(4, Math.ceil(options.rate))) : 64;
  return Math.max(1, Math.floor(options.concurrency ?? byRate));
}

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

class LockedDispatcher implements Dispatcher {
  state: DispatcherState = "idle";
  readonly stats = emptyStats();
  private readonly scheduler: Scheduler;
  private readonly concurrency: number;
  private readonly inFlight: InFlight;
  private readonly diskWait: DiskWait;
  private readonly reconciler: Reconciler;
  private readonly loop: SendLoop;
  private readonly abort = new AbortController();
  private stopping = false;
  private lock: DispatchLock | null = null;
  private main: Promise<void> | null = null;
  private dispatchingWaiters: Array<() => void> = [];

  constructor(private readonly options: DispatcherOptions) {
    const { store, messenger, logger } = options;
    const now = () => this.scheduler.now();
    const reconcileAfterMs = options.reconcileAfterMs ?? DEFAULT_RECONCILE_AFTER_MS;
    this.scheduler = options.scheduler ?? realScheduler;
    this.concurrency = concurrencyFor(options);
    this.inFlight = new InFlight(logger);
    this.diskWait = new DiskWait(logger, now);
    const diskWait = this.diskWait;
    const pacer = new Pacer(options.rate);
    const messages = new OutboundMessages(store, options.publicUrl ?? (() => null), now);
    const common = { store, stats: this.stats, logger, now };
    const gate = new ChannelGate({ pauses: options.pauses, store, logger, probeEveryMs: options.probeEveryMs ?? DEFAULT_PROBE_EVERY_MS });
    const recorder = new OutcomeRecorder({ ...common, pacer, reconcileAfterMs, diskWait, gate, onOptedOut: options.onOptedOut });
    this.reconciler = new Reconciler({ ...common, messenger, messages, inFlight: this.inFlight, reconcileAfterMs, diskWait, gate, concurrency: this.concurrency });
    this.loop = new SendLoop({
      ...common,
      messenger,
      messages,
      recorder,
      reconciler: this.reconciler,
      starter: new BroadcastStarter({ store, logger, diskWait }),
      pacer,
      inFlight: this.inFlight,
      diskWait,
      gate,
      sleep: (ms) => this.sleep(ms),
      stopping: () => this.stopping,
      concurrency: this.concurrency,
      claimAheadMs: options.claimAheadMs ?? 100,
      idlePollMs: options.idlePollMs ?? 500,
      numberRule: options.numberRule,
      batchSize: options.batchSize ?? 100,
      statusPoller: messenger.lookup && options.onProviderStatus
        ? new StatusPoller({ ...common, lookup: messenger.lookup.bind(messenger), onStatus: options.onProviderStatus, inFlight: this.inFlight, diskWait, concurrency: this.concurrency })
        : undefined,
      collectGarbage: options.collectGarbage && { collect: options.collectGarbage, everySends: Math.max(1, options.collectEverySends ?? COLLECT_EVERY_SENDS) },
    });
  }

  start(): "dispatching" | "standby" {
    if (this.state !== "idle") throw new Error("dispatcher already started");
    const { takeLock, logger, rate, messenger } = this.options;
    if (takeLock) {
      this.lock = this.lockOrNull(takeLock);
      if (!this.lock) {
        this.state = "standby";
        const noRoom = this.diskWait.waiting;
        if (this.options.standby || noRoom) {
          if (!noRoom) logger.info("dispatcher: another process is sending messages for this data directory; standing by to take over");
          this.main = this.standBy(takeLock).catch((e) => logger.error(`dispatcher stopped by an error: ${errText(e)}`));
        }
        return "standby";
      }
    }
    const pace = Number.isFinite(rate) ? `${rate} message(s)/second` : "no rate limit";
    logger.info(`dispatcher: sending messages (${pace}, up to ${this.concurrency} at a time, via ${messenger.name})`);
    this.main = this.run().catch((e) => logger.error(`dispatcher stopped by an error: ${errText(e)}`));
    return "dispatching";
  }

  async stop(): Promise<void> {
    if (this.state === "stopped") return;
    this.stopping = true;
    this.abort.abort();
    this.inFlight.wake();
    this.wakeDispatchingWaiters();
    await this.main;
    const unanswered = await this.inFlight.settle(this.options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
    if (unanswered > 0) {
      this.options.logger.warn(`dispatcher: ${unanswered} send(s) still unanswered at shutdown; they will be checked at the next start`);
    }
    this.lock?.release();
    this.lock = null;
    this.state = "stopped";
  }

  whenDispatching(): Promise<void> {
    if (this.state === "dispatching" || this.state === "stopped") return Promise.resolve();
    return new Promise((resolve) => this.dispatchingWaiters.push(resolve));
  }

  private async run(): Promise<void> {
    this.state = "dispatching";
    this.wakeDispatchingWaiters();
    // Even this first write may meet a full disk: wait for room rather than die (nothing is sent before it).
    while (!this.stopping) {
      try {
        this.reconciler.recoverInFlight();
        this.diskWait.succeeded();
        break;
      } catch (e) {
        if (!this.diskWait.failed(e)) throw e;
        await this.sleep(this.diskWait.waitMs(this.scheduler.now()));
      }
    }
    if (this.stopping) return;
    await this.loop.run();
  }

  /** Retries the lock every lockRetryMs until it is free (the other dispatcher stopped or died), or as the disk wait
   * says while the disk has no room for the lock's file, then runs. */
  private async standBy(takeLock: TakeLock): Promise<void> {
    while (!this.stopping) {
      const noRoom = this.diskWait.waiting;
      await this.sleep(noRoom ? this.diskWait.waitMs(this.scheduler.now()) : (this.options.lockRetryMs ?? 5_000));
      if (this.stopping) return;
      this.lock = this.lockOrNull(takeLock);
      if (this.lock) {
        if (!noRoom) this.options.logger.info("dispatcher: took over sending messages");
        await this.run();
        return;
      }
    }
  }

  /** The lock, or null while another process holds it or the disk has no room for its file (a full disk is waited
   * out as for any write, DiskWait: at a start on a full disk, the server must live on, not die as it starts). */
  private lockOrNull(takeLock: TakeLock): ReturnType<TakeLock> {
    try {
      return takeLock();
    } catch (e) {
      if (!this.diskWait.failed(e)) throw e;
      return null;
    }
  }

  private sleep(ms: number): Promise<void> {
    return this.scheduler.sleep(Math.max(0, ms), this.abort.signal);
  }

  private wakeDispatchingWaiters(): void {
    for (const w of this.dispatchingWaiters.splice(0)) w();
  }
}
