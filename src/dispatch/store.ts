// What the dispatcher needs from the rest of the app, declared beside it (as listmonk's internal/manager declares its
// Store and Messenger): the outbox it works through, the provider it sends with, and the one-dispatcher lock. Two
// files here adapt the app's parts to these (outbox-store.ts: the deliveries repo is the store; app-dispatchers.ts:
// the settings, the messengers and src/db/lock.ts the lock); the dispatcher itself knows no SQL, files or Twilio, and
// a test can hand it anything that fits.
import type { DeliveryStatus, Messenger, ProviderMessage } from "../messaging/messenger.ts";

export type DeliveryChannel = "SMS" | "WhatsApp";

/** A delivery handed over by claim(): Sending (send it now) or Skipped (no longer an active subscriber). */
export interface ClaimedDelivery {
  id: number;
  broadcastId: number;
  customerId: number;
  channel: DeliveryChannel;
  toPhone: string;
  attempts: number;
  claimedAt: number;
  status: "Sending" | "Skipped";
  /** Seconds left before the recipient's quiet hours begin (Twilio's ValidityPeriod); absent when quiet hours are
   * off, and for a confirmation (not marketing). */
  validForSeconds?: number;
}

/** A delivery whose send may or may not have reached the provider (its answer was lost). */
export interface UncertainDelivery {
  id: number;
  broadcastId: number;
  channel: DeliveryChannel;
  toPhone: string;
  attempts: number;
  claimedAt: number | null;
  updatedAt: number | null;
  errorMessage: string | null;
}

/** What every delivery of one broadcast says. */
export interface BroadcastMessage {
  messageText: string;
  imagePath: string | null;
  /** A WhatsApp template (HX…) and its variables (JSON object text): WhatsApp deliveries send these instead. */
  contentSid?: string | null;
  contentVariables?: string | null;
  /** Issue 25: each URL goes as the delivery's own short link (the broadcast has links and tracks them). */
  trackLinks?: boolean;
  /** Issue 25: `{code}` goes as the delivery's own unique coupon code. */
  uniqueCoupons?: boolean;
}

/** A delivery's own codes (issue 25): its short link codes in the order of its broadcast's links, its coupon. */
export interface Personal {
  links: string[];
  coupon: string | null;
}

/** The outbox. Times are milliseconds since the epoch; every call is one short synchronous write or read. */
export interface DispatchStore {
  /** Up to `limit` due Queued deliveries become Sending (attempts + 1), or Skipped when no longer subscribed. */
  claim(now: number, limit: number): ClaimedDelivery[];
  /** The provider accepted it (or a status callback already moved it on: never backwards). */
  recordSent(id: number, providerId: string, status: DeliveryStatus, providerStatus: string, now: number): void;
  /** Certainly not accepted: Queued again, due at `nextAttemptAt`. */
  requeue(id: number, nextAttemptAt: number, now: number, reason: string | null, code: number | null): void;
  /** The answer was lost: Uncertain, looked up at `reconcileAt`. */
  markUncertain(id: number, reconcileAt: number, now: number, reason: string): void;
  markFailed(id: number, code: number | null, message: string, now: number): void;
  /** A claimed delivery that must not go (its number breaks the number rule): Skipped with `reason`. */
  markSkipped(id: number, reason: string, now: number): void;
  /** A claimed delivery whose channel is paused (an account problem, channel-gate.ts): Queued again, held until the
   * channel resumes, the attempt not counted; `reason` is what its history says meanwhile. */
  park(id: number, now: number, reason: string): void;
  /** Claimed rows never handed to the provider go back to Queued, the attempt not counted; answers how many. */
  release(ids: number[], now: number): number;
  /** At start: rows still Sending were in flight when the last dispatcher died; they become Uncertain. Their ids. */
  recoverInFlight(now: number, graceMs: number): number[];
  dueUncertain(now: number, limit: number): UncertainDelivery[];
  /** An Uncertain delivery the provider turned out to have. false: the message found is another delivery's (the
   * same text to the same person, e.g. a repeat broadcast), or the row moved on meanwhile. */
  resolveFound(id: number, found: ProviderMessage, now: number): boolean;
  /** An Uncertain delivery not checked yet: due again at `at`. */
  postpone(id: number, at: number, now: number, reason: string): void;
  /** When the next Queued or Uncertain delivery, or the next scheduled broadcast's start, is due; null when none. */
  nextDueAt(): number | null;
  /** Starts the scheduled broadcasts due at `now` (their deliveries then follow by enqueueNextChunk). Their ids. */
  startDueBroadcasts(now: number): number[];
  /** The broadcasts whose deliveries are still being written: scheduled ones just started, or a publish cut short. */
  pendingEnqueues(): number[];
  /** Writes the next chunk of a broadcast's deliveries (one short durable transaction); `done` after the last. */
  enqueueNextChunk(broadcastId: number, now: number): { written: number; done: boolean; total: number | null };
  /** Marks every broadcast with nothing pending as completed; their ids. */
  completeFinished(now: number): number[];
  broadcastMessage(broadcastId: number): BroadcastMessage | undefined;
  /** The delivery's short link codes and/or unique coupon, made on the first call in one short write, the same
   * after (a resend or a look-up says the same text). Only for broadcasts that track links or have unique coupons. */
  personalize(deliveryId: number, broadcastId: number, want: { links: boolean; coupon: boolean }, now: number): Personal;
  /** Sent without a status callback: its outcome is looked up at `at` (status-poller.ts). */
  watchStatus(id: number, at: number): void;
  /** Up to `limit` deliveries whose outcome is due to be looked up. */
  dueStatusChecks(now: number, limit: number): StatusCheck[];
  /** The next look-up at `at`; null: none any more. */
  setStatusCheck(id: number, at: number | null): void;
}

/** A delivery sent without a status callback, due to be looked up. */
export interface StatusCheck {
  id: number;
  providerId: string | null;
  status: string;
  sentAt: number | null;
}

/** A channel whose sending is paused by an account problem (src/messaging/account-errors.ts). */
export interface ChannelPause {
  channel: DeliveryChannel;
  /** Twilio's code; null when nothing reached Twilio (no sender set). */
  code: number | null;
  /** In plain words, e.g. "Twilio refused the credentials (...)". */
  reason: string;
  /** What fixes it, one sentence. */
  fix: string;
  since: number;
}

/** Where pauses are kept (they outlive the process, and other processes show them). */
export interface PauseStore {
  list(): ChannelPause[];
  /** Records the pause unless the channel is paused already (then nothing changes); true when it is new. */
  pause(p: ChannelPause): boolean;
  /** Lifts the channel's pause: its held deliveries are due at `now`. Answers how many were held. */
  resume(channel: DeliveryChannel, now: number): number;
  /** The paused channel's deliveries queued meanwhile are held at once (not one claim at a time); how many. */
  hold(channel: DeliveryChannel, now: number): number;
  /** One held delivery of the paused channel is due at `now` (a probe); its id, null when none is held. */
  probe(channel: DeliveryChannel, now: number): number | null;
}

/** The provider, as far as the dispatcher uses it. */
export type DispatchMessenger = Pick<Messenger, "name" | "send" | "findRecent"> & Partial<Pick<Messenger, "lookup">>;

export interface DispatchLock {
  release(): void;
}

/** Takes the one-dispatcher lock of the data directory; null while another dispatcher holds it. */
export type TakeLock = () => DispatchLock | null;
