// The dispatcher's side of a paused channel. An account problem (src/messaging/account-errors.ts: a rotated token,
// a sender that cannot send, an unregistered number, no sender set) is nobody's fault among the recipients, so the
// delivery that met it goes back to the queue, held (store.park: not Failed, the attempt not counted), the channel's
// pause is recorded once (PauseStore: the broadcast, the checklist and the CLI show it; the admin is emailed), and
// every delivery of that channel claimed afterwards, broadcasts and confirmations alike, is held the same way.
// The pause lifts when the setting is fixed (a change of the messaging settings resumes every channel:
// app-dispatchers.ts), or by a probe: every `probeEveryMs` one held delivery is let through, and when it is not
// refused for the account the channel resumes. So a fix made on Twilio's side (the old token back, a registration
// approved) resumes sending without a save. A dispatcher that starts probes a paused channel at once. A 30034 comes
// only in a status callback, after Twilio took the probe: the channel then resumes, and the callbacks of what was sent
// meanwhile pause it again (each of those messages waits, never failed: src/services/status-callbacks.ts).
import type { Logger } from "../lib/logger.ts";
import { accountProblemOf, pausedText, problemText } from "../messaging/account-errors.ts";
import type { SendOutcome } from "../messaging/messenger.ts";
import { backoffMs } from "./retry-policy.ts";
import type { ClaimedDelivery, DeliveryChannel, DispatchStore, PauseStore } from "./store.ts";

/** How often a paused channel is probed with one held delivery. */
export const DEFAULT_PROBE_EVERY_MS = 5 * 60_000;

type AccountOutcome = Extract<SendOutcome, { kind: "account_problem" }>;

interface Gate {
  /** The pause's reason, for the deliveries held meanwhile. */
  reason: string;
  /** When the next probe may go. */
  probeAt: number;
  /** The held delivery let through as the probe, until its answer. */
  probeId: number | null;
  /** A claim met deliveries of the channel since the last refresh: hold the rest of them at once. */
  holdRest: boolean;
}

export interface ChannelGateDeps {
  /** Absent (a test's bare store): an account problem is only retried later, never failed. */
  pauses: PauseStore | undefined;
  store: Pick<DispatchStore, "park" | "requeue">;
  logger: Logger;
  probeEveryMs: number;
}

export class ChannelGate {
  private readonly gates = new Map<DeliveryChannel, Gate>();
  private loaded = false;

  constructor(private readonly deps: ChannelGateDeps) {}

  /** Follows the pauses kept in the store (a status callback, another process or a fix may have changed them) and
   * lets a due probe through. Called with the housekeeping, about once a second. */
  refresh(now: number): void {
    const { pauses, logger, probeEveryMs } = this.deps;
    if (!pauses) return;
    const kept = new Map(pauses.list().map((p) => [p.channel, p.reason]));
    for (const channel of [...this.gates.keys()]) {
      if (kept.has(channel)) continue;
      this.gates.delete(channel);
      logger.info(`dispatcher: ${channel} sending resumed`);
    }
    for (const [channel, reason] of kept) {
      // At the first read, probe at once: the fix may have been made while no dispatcher ran.
      if (!this.gates.has(channel)) this.gates.set(channel, { reason, probeAt: this.loaded ? now + probeEveryMs : now, probeId: null, holdRest: false });
    }
    this.loaded = true;
    for (const [channel, gate] of this.gates) {
      if (gate.holdRest) pauses.hold(channel, now);
      gate.holdRest = false;
      if (gate.probeId !== null || now < gate.probeAt) continue;
      gate.probeAt = now + probeEveryMs;
      gate.probeId = pauses.probe(channel, now);
      if (gate.probeId !== null) logger.info(`dispatcher: ${channel} is paused; trying one message (delivery ${gate.probeId}) to see whether the problem is fixed`);
    }
  }

  paused(channel: DeliveryChannel): boolean {
    return this.gates.has(channel);
  }

  /** May this claimed delivery be sent now? Not while its channel is paused (then it is held), unless it is the
   * channel's probe. */
  admit(row: ClaimedDelivery, now: number): boolean {
    const gate = this.gates.get(row.channel);
    if (!gate || gate.probeId === row.id) return true;
    this.deps.store.park(row.id, now, pausedText(gate.reason));
    gate.holdRest = true;
    return false;
  }

  /** What a send's answer means for its channel; true when this took care of the row (an account problem: held). */
  settle(row: ClaimedDelivery, outcome: SendOutcome, now: number): boolean {
    if (outcome.kind === "account_problem") {
      this.pause(row, outcome, now);
      return true;
    }
    const gate = this.gates.get(row.channel);
    if (gate?.probeId === row.id && outcome.kind !== "unavailable" && outcome.kind !== "uncertain" && outcome.kind !== "rate_limited") {
      // Twilio took the probe (or refused it for the recipient only): the account works again.
      this.gates.delete(row.channel);
      const held = this.deps.pauses?.resume(row.channel, now) ?? 0;
      this.deps.logger.info(`dispatcher: ${row.channel} sending resumed (the probe went through); ${held} held message(s) queued again`);
    } else if (gate?.probeId === row.id) gate.probeId = null;
    return false;
  }

  /** A look-up found the message of an Uncertain delivery failed at the provider: when the code is an account problem
   * (30034...), the channel pauses and this answers what the delivery says while it waits; null otherwise (and
   * without a pause store), when it is the recipient's failure. */
  refusedForAccount(channel: DeliveryChannel, code: number | null, now: number): string | null {
    const p = accountProblemOf(null, code);
    if (!p || !this.deps.pauses) return null;
    const outcome: AccountOutcome = { kind: "account_problem", code: p.code, message: problemText(p), fix: p.fix };
    this.pauseChannel(channel, outcome, null, now);
    return pausedText(outcome.message);
  }

  private pause(row: ClaimedDelivery, outcome: AccountOutcome, now: number): void {
    if (!this.deps.pauses) {
      this.deps.store.requeue(row.id, now + backoffMs(row.attempts), now, pausedText(outcome.message), outcome.code);
      return;
    }
    this.pauseChannel(row.channel, outcome, row.id, now);
    this.deps.store.park(row.id, now, pausedText(outcome.message));
  }

  /** Records the pause (once) and closes the gate; `rowId` is the delivery that met it, a probe perhaps. */
  private pauseChannel(channel: DeliveryChannel, outcome: AccountOutcome, rowId: number | null, now: number): void {
    const { pauses, probeEveryMs } = this.deps;
    pauses?.pause({ channel, code: outcome.code, reason: outcome.message, fix: outcome.fix, since: now });
    const gate = this.gates.get(channel);
    if (!gate) this.gates.set(channel, { reason: outcome.message, probeAt: now + probeEveryMs, probeId: null, holdRest: false });
    else if (gate.probeId === rowId) {
      gate.probeId = null;
      gate.probeAt = now + probeEveryMs;
    }
  }
}
