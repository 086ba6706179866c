// A broadcast as the API and the CLI show it (BroadcastSummary): what the owner gave, its times and its counts.
import type { BroadcastRow } from "../../repos/broadcasts.ts";
import type { Repos } from "../../repos/index.ts";
import { publishSchema, STEERING_FIELDS } from "../../schemas/broadcast-input.ts";
import type { BroadcastState, BroadcastSummary, GivenFields } from "../../schemas/broadcasts.ts";
import { pauseOfBroadcast } from "../sending-pause.ts";

type StatusCounts = ReturnType<Repos["deliveries"]["counts"]>;
type WaitingCounts = ReturnType<Repos["deliveries"]["waiting"]>;

/** The keys of GivenFields, from the schema: a publish field that is stored shows with no edit here. */
const GIVEN_KEYS = Object.keys(publishSchema.entries).filter((k) => !(STEERING_FIELDS as readonly string[]).includes(k)) as (keyof GivenFields)[];

/** What the owner gave, as stored. A field of the publish schema with no column of its own is a compile error here. */
export function givenFields(row: GivenFields): GivenFields {
  return Object.fromEntries(GIVEN_KEYS.map((k) => [k, row[k]])) as GivenFields;
}

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

function stateOf(row: BroadcastRow): BroadcastState {
  if (row.cancelledAt !== null) return "cancelled";
  if (row.startedAt === null && row.scheduledFor !== null) return "scheduled";
  return row.completedAt === null ? "sending" : "completed";
}

export function toSummary(row: BroadcastRow, c: StatusCounts, waiting: WaitingCounts = { quietHours: 0, dailyLimit: 0 }, retryable = 0): BroadcastSummary {
  return {
    id: row.id,
    ...givenFields(row),
    imagePath: row.imagePath,
    createdAt: new Date(row.createdAt).toISOString(),
    total: row.total,
    queued: c.Queued + c.Sending + c.Uncertain,
    sent: c.Sent,
    delivered: c.Delivered,
    failed: c.Failed,
    skipped: c.Skipped,
    expired: c.Expired,
    cancelled: c.Cancelled,
    retryable,
    waiting,
    completedAt: iso(row.completedAt),
    scheduledFor: iso(row.scheduledFor),
    startedAt: iso(row.startedAt),
    cancelledAt: iso(row.cancelledAt),
    couponExpiresAt: iso(row.couponExpiresAt),
    state: stateOf(row),
  };
}

/** The summary with "Paused: <reason>" while a paused channel holds the unfinished broadcast back. */
function withPause(repos: Repos, row: BroadcastRow, s: BroadcastSummary): BroadcastSummary {
  const paused = row.completedAt === null && row.cancelledAt === null ? pauseOfBroadcast(repos, row.id) : null;
  return paused ? { ...s, paused } : s;
}

export function broadcastSummaries(repos: Repos) {
  /** Only a broadcast with failures or expired messages, not stopped, has any to retry (one indexed count then). */
  const retryableOf = (row: BroadcastRow, c: StatusCounts) =>
    (c.Failed > 0 || c.Expired > 0) && row.cancelledAt === null ? repos.deliveries.retryableFailed(row.id) : 0;
  /** A sending broadcast gets its place among the other shops sending (a count over the unfinished broadcasts). */
  const withQueue = (s: BroadcastSummary): BroadcastSummary =>
    s.state === "sending" && s.queued > 0 ? { ...s, queueAhead: repos.broadcasts.otherBusinessesSending(s.businessId) } : s;
  return {
    summary(row: BroadcastRow): BroadcastSummary {
      const counts = repos.deliveries.counts(row.id);
      return withPause(repos, row, withQueue(toSummary(row, counts, repos.deliveries.waiting(row.id), retryableOf(row, counts))));
    },
    /** Several broadcasts' summaries: their counts in one read; only an unfinished one can have deliveries waiting. */
    summaries(rows: BroadcastRow[]): BroadcastSummary[] {
      const counts = repos.broadcasts.countsFor(rows.map((r) => r.id));
      return rows.map((row) => {
        const c = counts.get(row.id)!;
        if (row.completedAt !== null) return toSummary(row, c, undefined, retryableOf(row, c));
        return withPause(repos, row, withQueue(toSummary(row, c, repos.deliveries.waiting(row.id), retryableOf(row, c))));
      });
    },
  };
}
