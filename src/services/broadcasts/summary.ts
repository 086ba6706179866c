// A broadcast as the API and the CLI show it (BroadcastSummary): what the owner gave, its times and its counts.
import type { BroadcastRow } from "../../repos/broadcasts.ts";
import type { Repos } from "../../repos/index.ts";
import { publishSchema, STEERING_FIELDS } from "../../schemas/broadcast-input.ts";
import type { BroadcastState, BroadcastSummary, GivenFields } from "../../schemas/broadcasts.ts";

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

export function toSummary(row: BroadcastRow, c: StatusCounts, waiting: WaitingCounts = { quietHours: 0, dailyLimit: 0 }): BroadcastSummary {
  return {
    id: row.id,
    ...givenFields(row),
    imagePath: row.imagePath,
    createdAt: new Date(row.createdAt).toISOString(),
    total: row.total,
    queued: c.Queued + c.Sending + c.Uncertain,
    sent: c.Sent,
    delivered: c.Delivered,
    failed: c.Failed + c.Skipped,
    skipped: c.Skipped,
    waiting,
    completedAt: iso(row.completedAt),
    scheduledFor: iso(row.scheduledFor),
    startedAt: iso(row.startedAt),
    cancelledAt: iso(row.cancelledAt),
    state: stateOf(row),
  };
}

export function broadcastSummaries(repos: Repos) {
  /** A sending broadcast gets its place among the other shops sending (a count over the unfinished broadcasts). */
  const withQueue = (s: BroadcastSummary): BroadcastSummary =>
    s.state === "sending" && s.queued > 0 ? { ...s, queueAhead: repos.broadcasts.otherBusinessesSending(s.businessId) } : s;
  return {
    summary(row: BroadcastRow): BroadcastSummary {
      return withQueue(toSummary(row, repos.deliveries.counts(row.id), repos.deliveries.waiting(row.id)));
    },
    /** Several broadcasts' summaries: their counts in one read; only an unfinished one can have deliveries waiting. */
    summaries(rows: BroadcastRow[]): BroadcastSummary[] {
      const counts = repos.broadcasts.countsFor(rows.map((r) => r.id));
      return rows.map((row) => (row.completedAt === null ? withQueue(toSummary(row, counts.get(row.id)!, repos.deliveries.waiting(row.id))) : toSummary(row, counts.get(row.id)!)));
    },
  };
}
