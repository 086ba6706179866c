import type { Clock } from "../clock.ts";
import { ValidationError } from "../errors.ts";
import type { Logger } from "../lib/logger.ts";
import type { StatusUpdate } from "../messaging/messenger.ts";
import { parseStatusCallback } from "../messaging/status.ts";
import { accountProblemOf } from "../messaging/account-errors.ts";
import { EXPIRED_BEFORE_QUIET_HOURS, expiredAtQuietHours } from "../messaging/validity.ts";
import { isMarketingStopped } from "../messaging/whatsapp-errors.ts";
import type { DeliveryRow, DeliveryStatusValue, StatusColumns } from "../repos/delivery-history.ts";
import type { Repos } from "../repos/index.ts";
import type { SendingPauseService } from "./sending-pause.ts";
import { applyTestCallback } from "./broadcasts/test-outcome.ts";

// What the provider tells us about a message after the send: Twilio's status callbacks (POST
// /api/webhooks/twilio/status) and the sandbox messenger's simulated timeline both come through apply().
//
// Statuses only move forward. Twilio retries callbacks and does not order them, so a late `sent` arrives after
// `delivered`, and the same callback can come twice: both are harmless no-ops.

/** How far along a delivery is. Everything not yet confirmed by the provider is 0; Delivered and Failed are final.
 * A Skipped delivery (opted out meanwhile) is 0 too: a callback about it means the provider did get it after all,
 * and the history should say what really happened. */
const RANK: Record<DeliveryStatusValue, number> = {
  Queued: 0,
  Sending: 0,
  Uncertain: 0,
  Skipped: 0,
  Cancelled: 0,
  Sent: 1,
  Delivered: 2,
  Failed: 2,
  Expired: 2,
};

export type ApplyOutcome =
  /** The delivery moved forward (or got its provider id). */
  | { kind: "advanced"; deliveryId: number; from: DeliveryStatusValue; to: DeliveryStatusValue }
  /** Known delivery, nothing to change: a duplicate, a late or out-of-order callback. */
  | { kind: "unchanged"; deliveryId: number; status: DeliveryStatusValue }
  /** The callback URL names no delivery (or none that exists). Logged. */
  | { kind: "unknown" }
  /** The callback URL names a delivery that already has another message sid. Logged, nothing written. */
  | { kind: "mismatch"; deliveryId: number }
  /** A status that is not about an outbound message (receiving, received, or one we do not know). */
  | { kind: "ignored" }
  /** Not delivered for an account problem (30034...): the delivery waits to be sent again, the channel paused. */
  | { kind: "requeued"; deliveryId: number }
  /** About a test message (…/status?test=<id>, broadcasts/test-outcome.ts): `changed` when it moved forward. */
  | { kind: "test"; testId: number; changed: boolean };

/** Texts for the Twilio error codes a local business will meet, for the message history when Twilio sends only the
 * code (status callbacks carry ErrorCode, rarely ErrorMessage). */
const TWILIO_ERRORS: Record<number, string> = {
  21408: "Sending to this region is not enabled",
  21610: "The recipient replied STOP and has unsubscribed",
  21614: "Not a mobile number",
  30001: "Queue overflow",
  30002: "Account suspended",
  30003: "Unreachable destination handset",
  30004: "Message blocked",
  30005: "Unknown destination handset",
  30006: "Landline or unreachable carrier",
  30007: "Message filtered by the carrier",
  30008: "Unknown error",
  30034: "Message from an unregistered number (A2P 10DLC)",
  30036: EXPIRED_BEFORE_QUIET_HOURS,
  63016: "WhatsApp: outside the 24-hour window; a template is required",
};

/** ErrorMessage as given, else a text for the code ("Twilio error 30006: Landline or unreachable carrier"). */
export function describeProviderError(code: number | null, message: string | null): string | null {
  if (message) return message;
  if (code === null) return null;
  const known = TWILIO_ERRORS[code];
  return known ? `Twilio error ${code}: ${known}` : `Twilio error ${code}`;
}

/** Compare-and-set rounds before a callback about a row that keeps changing is given up. */
const MAX_ATTEMPTS = 3;

/** The row's new status columns when `update` moves it forward (or brings its missing sid); null when not. */
function change(row: DeliveryRow, update: StatusUpdate, now: Date): StatusColumns | null {
  if (update.status === null) return null;
  const next: DeliveryStatusValue = expiredAtQuietHours(update) ? "Expired" : update.status;
  const forward = RANK[next] > RANK[row.status];
  const fillId = !row.providerId;
  if (!forward && !fillId) return null;
  const cols: StatusColumns = {
    status: row.status,
    providerId: row.providerId ?? update.providerId,
    providerStatus: row.providerStatus,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    sentAt: row.sentAt,
    updatedAt: now,
  };
  if (!forward) return cols;
  cols.status = next;
  cols.providerStatus = update.providerStatus;
  // Handed to the carrier: Sent, Delivered, or `undelivered` (sent but not delivered). A `failed` never left Twilio.
  if (!row.sentAt && ((next !== "Failed" && next !== "Expired") || update.providerStatus === "undelivered")) cols.sentAt = update.at;
  if (next === "Expired") {
    cols.errorCode = update.errorCode;
    cols.errorMessage = EXPIRED_BEFORE_QUIET_HOURS;
  } else if (next === "Failed") {
    cols.errorCode = update.errorCode ?? row.errorCode;
    cols.errorMessage = describeProviderError(update.errorCode, update.errorMessage) ?? row.errorMessage ?? "Not delivered";
  } else {
    // On its way or delivered: a note from before (the opt-out's "not sent", the dispatcher's "checking with the
    // provider", a retried error) would now be wrong; keep only what the provider says now.
    cols.errorCode = update.errorCode;
    cols.errorMessage = describeProviderError(update.errorCode, update.errorMessage);
  }
  return cols;
}

export interface StatusCallbacksDeps {
  repos: Repos;
  clock: Clock;
  logger: Logger;
  /** Where an account problem reported by a callback pauses the channel (absent: recorded as Failed). */
  sendingPause?: Pick<SendingPauseService, "requeueRefused">;
}

export function createStatusCallbacksService({ repos, clock, logger, sendingPause }: StatusCallbacksDeps) {
  /** Twilio took the message, then carriers refused it for the account (30034 unregistered, 30032 unverified): it was
   * not delivered and it is nobody's fault among the recipients, so it goes again once the channel's pause lifts. */
  function requeueIfAccountProblem(row: DeliveryRow, update: StatusUpdate): ApplyOutcome | null {
    // Held for a pause, it has no sid: a callback now is about the message before (Twilio repeats callbacks).
    if (row.deferredReason === "channel_paused" && row.status === "Queued") return { kind: "unchanged", deliveryId: row.id, status: row.status };
    if (!sendingPause || update.status !== "Failed" || (row.status !== "Sent" && row.status !== "Uncertain")) return null;
    const problem = accountProblemOf(null, update.errorCode);
    if (!problem) return null;
    if (!sendingPause.requeueRefused(row.id, update.providerId, row.channel, problem)) return null;
    logger.warn(`delivery ${row.id} (${update.providerId}) not delivered for the account (error ${update.errorCode}); it waits for sending to resume`);
    return { kind: "requeued", deliveryId: row.id };
  }

  /** The delivery the callback URL names (?delivery=42, set by the dispatcher on every send); it must have been sent
   * under this sid, or under none yet (the send's answer was lost). Without the id nothing is looked up: the sid is
   * not indexed (see the deliveries table in db/schema.ts). */
  function find(update: StatusUpdate, deliveryId: number | null): DeliveryRow | { mismatch: DeliveryRow } | null {
    if (deliveryId === null) return null;
    const row = repos.deliveryHistory.findById(deliveryId);
    if (!row) return null;
    if (row.providerId && row.providerId !== update.providerId) return { mismatch: row };
    return row;
  }

  function apply(update: StatusUpdate): ApplyOutcome {
    if (update.status === null) return { kind: "ignored" };
    const deliveryId = update.deliveryId ?? null;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const row = find(update, deliveryId);
      if (!row) {
        logger.warn(
          `status callback for an unknown message ${update.providerId}${deliveryId !== null ? ` (delivery ${deliveryId})` : ""}: ${update.providerStatus}; ignored`,
        );
        return { kind: "unknown" };
      }
      if ("mismatch" in row) {
        logger.warn(
          `status callback for ${update.providerId} names delivery ${row.mismatch.id}, which was sent as ${row.mismatch.providerId}; ignored`,
        );
        return { kind: "mismatch", deliveryId: row.mismatch.id };
      }
      const requeued = requeueIfAccountProblem(row, update);
      if (requeued) return requeued;
      const next = change(row, update, clock.now());
      if (!next) return { kind: "unchanged", deliveryId: row.id, status: row.status };
      // Compare-and-set: if the dispatcher (or another process) changed the row meanwhile, decide again.
      if (repos.deliveryHistory.updateIfStatus(row, next)) {
        if (row.status === "Skipped") {
          logger.warn(`delivery ${row.id} was skipped (opt-out) but ${update.providerId} reports ${update.providerStatus}`);
        }
        // Meta 131050: the person turned WhatsApp marketing off (cleared when they write to us there again).
        if (next.status === "Failed" && isMarketingStopped(update.errorCode)) {
          repos.customerInbound.markMarketingStoppedByDelivery(row.id, clock.now().getTime());
        }
        return { kind: "advanced", deliveryId: row.id, from: row.status, to: next.status };
      }
    }
    logger.warn(`status callback for ${update.providerId}: delivery kept changing; ignored`);
    return { kind: "unknown" };
  }

  return {
    /** A status change from the provider (Twilio callback or the sandbox's onStatus), applied at once. Never moves
     * a status back. */
    apply,

    /**
     * The form fields of a Twilio status callback. `deliveryId` comes from the callback URL (?delivery=42): it
     * finds the delivery even when the send's answer (and so its sid) was lost. A callback without a message sid
     * is a 400 (thrown at once); anything else is answered 200 (Twilio would retry an error for nothing). Resolves
     * once the write is committed: one compare-and-set UPDATE, its own transaction.
     */
    handleTwilioCallback(params: Record<string, unknown>, deliveryId: number | null, testId: number | null = null): Promise<ApplyOutcome> {
      const update = parseStatusCallback(params, clock.now());
      if (!update) {
        const sid = typeof params.MessageSid === "string" ? params.MessageSid : typeof params.SmsSid === "string" ? params.SmsSid : "";
        if (!sid.trim()) throw new ValidationError("MessageSid is required.", { MessageSid: "required" });
        logger.info(`status callback for ${sid.slice(0, 40)} ignored (status ${JSON.stringify(String(params.MessageStatus ?? params.SmsStatus ?? "").slice(0, 20))})`);
        return Promise.resolve({ kind: "ignored" });
      }
      if (testId !== null) {
        const reason = describeProviderError(update.errorCode, update.errorMessage);
        return Promise.resolve({ kind: "test", testId, changed: applyTestCallback({ repos, clock, logger }, testId, update, reason) });
      }
      return Promise.resolve(apply({ ...update, deliveryId }));
    },
  };
}

export type StatusCallbacksService = ReturnType<typeof createStatusCallbacksService>;
