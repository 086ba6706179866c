// Settles what the send loop could not: deliveries whose answer was lost, and broadcasts with nothing left to send.
// - At start, rows still Sending were in flight when the previous dispatcher died (kill -9 included): they become
//   Uncertain. Only a request that was on the wire at that moment can be in doubt.
// - An Uncertain delivery is settled by its status callback (the webhooks move the row; its URL names it), or, once
//   due, by asking the provider (messenger.findRecent: same number, same text, since its claim): found -> what the
//   provider says; not found -> Queued again (the provider never had it); no answer -> asked again later. Never
//   resent blindly.
import type { Logger } from "../lib/logger.ts";
import { MessengerUnavailableError } from "../messaging/messenger.ts";
import type { ChannelGate } from "./channel-gate.ts";
import type { DiskWait } from "./disk-wait.ts";
import type { InFlight } from "./in-flight.ts";
import type { OutboundMessages } from "./outbound-messages.ts";
import { MAX_ATTEMPTS, MAX_BACKOFF_MS } from "./retry-policy.ts";
import type { DispatcherStats } from "./stats.ts";
import type { DispatchMessenger, DispatchStore, UncertainDelivery } from "./store.ts";

/** While a look-up runs, its row is not due again for this long. */
const LOOKUP_LEASE_MS = 60_000;

export interface ReconcilerDeps {
  store: DispatchStore;
  messenger: DispatchMessenger;
  messages: OutboundMessages;
  inFlight: InFlight;
  stats: DispatcherStats;
  logger: Logger;
  now(): number;
  reconcileAfterMs: number;
  diskWait: DiskWait;
  /** A message found refused for the account (30034...) pauses its channel, and the delivery waits. */
  gate: ChannelGate;
  /** Look-ups share the send slots. */
  concurrency: number;
}

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class Reconciler {
  private readonly looking = new Set<number>();

  constructor(private readonly deps: ReconcilerDeps) {}

  /** At start: what the previous dispatcher left in flight becomes Uncertain, to be looked up. */
  recoverInFlight(): void {
    const { store, stats, logger } = this.deps;
    const recovered = store.recoverInFlight(this.deps.now(), this.deps.reconcileAfterMs);
    stats.recovered += recovered.length;
    if (recovered.length > 0) {
      logger.warn(
        `dispatcher: ${recovered.length} message(s) were being sent when the previous dispatcher stopped; ` +
          "they will be checked with the provider, not sent again blindly",
      );
    }
  }

  /** Completes finished broadcasts and starts the look-ups that are due, in the free send slots. */
  housekeeping(now: number): void {
    const { store, inFlight, messages, logger } = this.deps;
    try {
      for (const id of store.completeFinished(now)) {
        messages.forget(id);
        logger.info(`dispatcher: broadcast ${id} completed`);
      }
      const free = this.deps.concurrency - inFlight.size;
      if (free <= 0) return;
      for (const row of store.dueUncertain(now, free)) {
        if (this.looking.has(row.id)) continue;
        // The lease first: if it cannot be written (a full disk), the row is simply not looked up yet.
        store.postpone(row.id, now + LOOKUP_LEASE_MS, now, row.errorMessage ?? "Checking with the provider");
        this.looking.add(row.id);
        inFlight.track(this.lookUp(row).finally(() => this.looking.delete(row.id)));
      }
    } catch (e) {
      // A full disk: the dispatcher's pause says so once; the same housekeeping runs again later.
      if (!this.deps.diskWait.failed(e)) logger.error(`dispatcher: housekeeping failed: ${errText(e)}`);
    }
  }

  private async lookUp(row: UncertainDelivery): Promise<void> {
    const { store, messenger } = this.deps;
    let message: ReturnType<typeof this.deps.messages.for>;
    try {
      message = this.deps.messages.for(row);
    } catch (e) {
      // Its codes could not be read (the database busy): the lease taken before the look-up holds, it comes back.
      if (!this.deps.diskWait.failed(e)) throw e;
      return;
    }
    if (!message) return;
    const since = new Date(row.claimedAt ?? row.updatedAt ?? this.deps.now());
    let found: Awaited<ReturnType<DispatchMessenger["findRecent"]>>;
    try {
      found = await messenger.findRecent(message, since);
    } catch (e) {
      const now = this.deps.now();
      const why = e instanceof MessengerUnavailableError ? e.message : errText(e);
      try {
        store.postpone(row.id, now + Math.min(MAX_BACKOFF_MS, this.deps.reconcileAfterMs), now, `Could not check with the provider yet: ${why}`);
      } catch (err) {
        if (!this.deps.diskWait.failed(err)) throw err; // the lease taken before the look-up still holds
      }
      return;
    }
    try {
      this.settle(row, found);
    } catch (e) {
      // Not written (e.g. a full disk): the row stays Uncertain under its lease and is looked up again after it.
      if (!this.deps.diskWait.failed(e)) throw e;
    }
  }

  private settle(row: UncertainDelivery, found: Awaited<ReturnType<DispatchMessenger["findRecent"]>>): void {
    const { store, stats, logger } = this.deps;
    const now = this.deps.now();
    // Taken, then refused for the account (30034...): not delivered and nobody's fault; it waits with its channel
    // (queued again, the next claim holds it while the channel is paused).
    const held = found?.status === "Failed" ? this.deps.gate.refusedForAccount(row.channel, found.errorCode, now) : null;
    if (held) {
      store.requeue(row.id, now, now, held, found!.errorCode);
      stats.requeued++;
      return;
    }
    // Not resolved although found: the message is another delivery's (same text, same person), or a status callback
    // settled the row meanwhile (then the guarded writes below change nothing).
    if (found && store.resolveFound(row.id, found, now)) {
      stats.reconciled++;
      logger.info(`dispatcher: delivery ${row.id} was accepted by the provider after all (${found.providerId}); not sending it again`);
    } else if (row.attempts >= MAX_ATTEMPTS) {
      store.markFailed(row.id, null, `Gave up after ${row.attempts} attempts: ${row.errorMessage ?? "no answer"}`, now);
      stats.failed++;
    } else {
      store.requeue(row.id, now, now, "The provider has no such message; sending again", null);
      stats.requeued++;
    }
  }
}
