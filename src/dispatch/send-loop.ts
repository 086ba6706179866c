// The dispatcher's loop: claims due deliveries in short synchronous transactions (store.claim), starts each send at
// its slot (Pacer), with at most `concurrency` sends and look-ups under way, and calls the provider OUTSIDE any
// transaction (the claim is on disk first: sql/claim.ts commits it with synchronous=FULL). Paced, it claims right
// at a slot (up to `claimAheadMs` of starts), so nothing waits long in Sending; unlimited, it keeps up to
// `batchSize` claimed ahead and claims again once half of `concurrency` is left (a claim is one transaction for many
// rows). When stopping, claimed rows not handed to the provider go back to the queue.
// A full disk pauses everything (disk-wait.ts): claimed rows stay claimed, answers wait in the recorder, and the loop
// retries with a growing backoff until writes go through again.
import type { Logger } from "../lib/logger.ts";
import type { BroadcastStarter } from "./broadcast-starter.ts";
import type { ChannelGate } from "./channel-gate.ts";
import type { DiskWait } from "./disk-wait.ts";
import type { SendOutcome } from "../messaging/messenger.ts";
import type { InFlight } from "./in-flight.ts";
import type { OutboundMessages } from "./outbound-messages.ts";
import type { OutcomeRecorder } from "./outcome-recorder.ts";
import type { Pacer } from "./pacer.ts";
import type { Reconciler } from "./reconciler.ts";
import type { StatusPoller } from "./status-poller.ts";
import type { DispatcherStats } from "./stats.ts";
import type { ClaimedDelivery, DispatchMessenger, DispatchStore } from "./store.ts";

const HOUSEKEEPING_EVERY_MS = 1_000;
/** Between chunks of a broadcast's deliveries being written: the server answers what came meanwhile. */
const ENQUEUE_PAUSE_MS = 10;
const CLAIM_FAILED_PAUSE_MS = 1_000;

export interface SendLoopDeps {
  store: DispatchStore;
  messenger: DispatchMessenger;
  messages: OutboundMessages;
  recorder: OutcomeRecorder;
  reconciler: Reconciler;
  pacer: Pacer;
  inFlight: InFlight;
  diskWait: DiskWait;
  /** Paused channels: their deliveries are held, not sent (channel-gate.ts). */
  gate: ChannelGate;
  stats: DispatcherStats;
  logger: Logger;
  /** Starts scheduled broadcasts that are due (with the housekeeping). */
  starter?: BroadcastStarter;
  now(): number;
  /** Resolves after `ms`, or at once when the dispatcher stops. */
  sleep(ms: number): Promise<void>;
  stopping(): boolean;
  concurrency: number;
  claimAheadMs: number;
  idlePollMs: number;
  batchSize: number;
  /** The number rule of the moment (DispatcherOptions.numberRule); absent: no check. */
  numberRule?: (() => (phone: string) => string | null) | undefined;
  /** Looks up the outcome of messages sent without a status callback (with the housekeeping). */
  statusPoller?: StatusPoller | undefined;
  /** Runs every `everySends` starts, between sends (a benchmark may ask for a garbage collection). */
  collectGarbage?: { collect(): void; everySends: number } | undefined;
}

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class SendLoop {
  private readonly ready: ClaimedDelivery[] = [];
  private lastHousekeeping = Number.NEGATIVE_INFINITY;
  /** Deliveries of some broadcast were still to be written at the last housekeeping. */
  private enqueuing = false;
  /** The turn (its `now`) in which the starter last wrote deliveries: once per turn, so a claim and an idle
   * housekeeping in the same turn do not add their own chunks to the time the server waits (bench/stall.ts). */
  private startedIn = Number.NaN;
  private startsSinceCollect = 0;

  constructor(private readonly deps: SendLoopDeps) {}

  async run(): Promise<void> {
    const { pacer, inFlight, stopping, sleep } = this.deps;
    while (!stopping()) {
      const now = this.deps.now();
      this.deps.stats.lastTickAt = now;
      if (this.deps.diskWait.waiting || this.deps.recorder.pending > 0) {
        // No room on the disk: nothing new starts until the answers kept meanwhile are written.
        const wait = this.deps.diskWait.waitMs(now);
        if (wait > 0) {
          await sleep(wait);
          continue;
        }
        if (!this.deps.recorder.flush()) continue;
      }
      if (now - this.lastHousekeeping >= HOUSEKEEPING_EVERY_MS) this.housekeeping(now);
      else if (this.enqueuing) this.startDue(now);
      const slot = pacer.next(now);
      if (this.ready.length === 0 && slot > now) {
        await sleep(Math.min(slot - now, this.deps.idlePollMs, this.enqueuing ? ENQUEUE_PAUSE_MS : Number.POSITIVE_INFINITY));
        continue;
      }
      this.collectGarbageIfDue();
      if (this.ready.length <= this.lowWater()) {
        const claimed = this.claim(now);
        if (claimed === "no room") continue; // the top of the loop waits, then tries again
        if (claimed === null) {
          await sleep(CLAIM_FAILED_PAUSE_MS);
          continue;
        }
        if (claimed > 0 && this.ready.length === 0) continue; // all skipped: claim again
      }
      if (this.ready.length === 0) {
        await this.idle(now);
        continue;
      }
      if (inFlight.size >= this.deps.concurrency) {
        await inFlight.waitForSlot();
        continue;
      }
      if (slot > now) {
        await sleep(Math.min(slot - now, this.enqueuing ? ENQUEUE_PAUSE_MS : Number.POSITIVE_INFINITY));
        continue;
      }
      pacer.take(now);
      this.start(this.ready.shift()!);
    }
    this.releaseUnsent();
  }

  private housekeeping(now: number): void {
    this.startDue(now);
    try {
      this.deps.gate.refresh(now);
    } catch (e) {
      // Busy or no room: tried again at the next housekeeping.
      if (!this.deps.diskWait.failed(e)) this.deps.logger.warn(`dispatcher: could not check the paused channels: ${errText(e)}`);
    }
    this.deps.reconciler.housekeeping(now);
    this.deps.statusPoller?.poll(now);
    this.lastHousekeeping = now;
  }

  private startDue(now: number): void {
    if (this.startedIn === now) return;
    this.startedIn = now;
    this.enqueuing = this.deps.starter?.startDue(now) ?? false;
  }

  private lowWater(): number {
    return this.deps.pacer.unlimited ? Math.floor(this.deps.concurrency / 2) : 0;
  }

  private highWater(): number {
    const { pacer, concurrency, batchSize, claimAheadMs } = this.deps;
    return pacer.unlimited ? Math.max(concurrency, batchSize) : Math.min(concurrency, pacer.capacity(claimAheadMs));
  }

  /** Claims up to the high-water mark; answers how many rows came (Skipped ones included), null when it failed,
   * "no room" when the disk is full. */
  private claim(now: number): number | null | "no room" {
    let claimed: ClaimedDelivery[];
    try {
      claimed = this.deps.store.claim(now, Math.min(this.deps.batchSize, this.highWater() - this.ready.length));
    } catch (e) {
      if (this.deps.diskWait.failed(e)) return "no room";
      this.deps.logger.error(`dispatcher: claiming failed: ${errText(e)}`);
      return null;
    }
    if (claimed.length > 0) this.deps.diskWait.succeeded();
    const problemOf = claimed.length > 0 ? this.deps.numberRule?.() : undefined;
    for (const c of claimed) {
      const problem = c.status === "Sending" ? (problemOf?.(c.toPhone) ?? null) : null;
      if (c.status === "Sending" && problem === null) {
        if (!this.held(c, now)) this.ready.push(c);
      } else {
        this.deps.stats.skipped++;
        if (problem !== null) this.skip(c, problem, now);
      }
    }
    return claimed.length;
  }

  /** A number the rule refuses: Skipped with the reason, never sent. With the disk full the row stays Sending: the
   * next start finds it, the provider never had it, and it is claimed (and refused) again. */
  private skip(row: ClaimedDelivery, reason: string, now: number): void {
    try {
      this.deps.store.markSkipped(row.id, `Not sent: ${reason}.`, now);
    } catch (e) {
      if (!this.deps.diskWait.failed(e)) throw e;
    }
  }

  /** Nothing to send now: settles what is finished, looks up due Uncertain rows, sleeps until something is due. */
  private async idle(now: number): Promise<void> {
    this.housekeeping(now);
    let next: number | null = null;
    try {
      next = this.deps.store.nextDueAt();
    } catch {
      next = null;
    }
    const { idlePollMs, inFlight, sleep } = this.deps;
    // A broadcast's deliveries still being written: back for the next chunks at once (its first rows may be sent).
    const wait = this.enqueuing ? 10 : next === null ? idlePollMs : Math.min(idlePollMs, Math.max(10, next - now));
    if (inFlight.size > 0) await Promise.race([sleep(wait), inFlight.waitForSlot()]);
    else await sleep(wait);
  }

  /** A delivery of a paused channel is held instead of sent (true). With the disk full it stays Sending, like a skip:
   * the next start finds it and the provider, which never had it, answers that it may be queued again. */
  private held(row: ClaimedDelivery, now: number): boolean {
    try {
      return !this.deps.gate.admit(row, now);
    } catch (e) {
      if (!this.deps.diskWait.failed(e)) throw e;
      return true;
    }
  }

  private start(row: ClaimedDelivery): void {
    const { store, messenger, recorder, stats } = this.deps;
    // Its channel paused after the claim (another send met an account problem): it waits with the others.
    if (this.deps.gate.paused(row.channel) && this.held(row, this.deps.now())) return;
    let message: ReturnType<typeof this.deps.messages.for>;
    try {
      message = this.deps.messages.for(row);
    } catch (e) {
      // Its own short links or coupon could not be written (a full disk, the database busy): tried again later.
      if (!this.deps.diskWait.failed(e)) throw e;
      this.ready.unshift(row);
      return;
    }
    if (!message) {
      try {
        store.markFailed(row.id, null, "The broadcast no longer exists", this.deps.now());
      } catch (e) {
        if (!this.deps.diskWait.failed(e)) throw e;
        this.ready.unshift(row); // tried again once there is room
      }
      return;
    }
    stats.started++;
    this.startsSinceCollect++;
    const send = async () => {
      let outcome: SendOutcome;
      try {
        outcome = await messenger.send(message);
      } catch (e) {
        // The port promises never to throw; if it did, the request may have left: reconcile, never resend blindly.
        outcome = { kind: "uncertain", message: `send failed unexpectedly: ${errText(e)}` };
      }
      recorder.record(row, outcome);
    };
    this.deps.inFlight.track(send());
  }

  private collectGarbageIfDue(): void {
    const gc = this.deps.collectGarbage;
    if (!gc || this.startsSinceCollect < gc.everySends) return;
    this.startsSinceCollect = 0;
    gc.collect();
  }

  private releaseUnsent(): void {
    if (this.ready.length === 0) return;
    const ids = this.ready.splice(0).map((r) => r.id);
    let released: number;
    try {
      released = this.deps.store.release(ids, this.deps.now());
    } catch (e) {
      if (!this.deps.diskWait.failed(e)) throw e;
      // They stay Sending: the next start finds them, asks the provider (which never had them) and queues them again.
      this.deps.logger.warn(`dispatcher: ${ids.length} claimed message(s) could not be released (no room on the disk); they are checked at the next start`);
      return;
    }
    if (released > 0) this.deps.logger.info(`dispatcher: released ${released} claimed message(s) back to the queue`);
  }
}
