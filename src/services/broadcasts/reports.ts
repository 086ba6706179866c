// Reading broadcasts back: subscriber counts, the history (whole or a page at a time), one broadcast's progress, and
// a retry of its failed deliveries.
import { ConflictError, NotFoundError, throwIfInvalid } from "../../errors.ts";
import type { SubscriberCounts } from "../../repos/broadcasts.ts";
import type { BroadcastSummary } from "../../schemas/broadcasts.ts";
import { checkPageParams, type Page, pageOf } from "../../schemas/paging.ts";
import { requireApprovedOwner } from "../owner-approval.ts";
import type { Principal } from "../principal.ts";
import type { BroadcastParts } from "./parts.ts";

export const NOTHING_TO_RETRY = "No failed messages can be retried.";

/** What `broadcast status` says of a confirmation's id (confirmations are counted as broadcasts in the database). */
export const notABroadcast = (id: number) =>
  `${id} is not a broadcast: it is an opt-in confirmation (the text one new subscriber gets). nearcast broadcast list --business N lists the broadcasts.`;

export function reports({ repos, clock, access, show }: BroadcastParts) {
  return {
    subscriberCount(actor: Principal, businessId: number): SubscriberCounts {
      access.readable(actor, businessId);
      return repos.broadcasts.subscriberCounts(businessId);
    },

    /** The business's broadcasts, newest first (at most 100). */
    list(actor: Principal, businessId: number): BroadcastSummary[] {
      access.readable(actor, businessId);
      return show.summaries(repos.broadcasts.listByBusiness(businessId));
    },

    /** GET ListBroadcasts: the history a page at a time, newest first (cursor, limit), with the total. */
    page(actor: Principal, businessId: number, query: Record<string, string | undefined>): Page<BroadcastSummary> {
      const errors: Record<string, string> = {};
      const { after, limit } = checkPageParams<number>(query, "number", errors);
      throwIfInvalid(errors);
      access.readable(actor, businessId);
      const rows = repos.broadcasts.pageByBusiness(businessId, after, limit + 1);
      return pageOf(rows, limit, (r) => ({ key: new Date(r.createdAt).getTime(), id: r.id }), repos.broadcasts.countByBusiness(businessId), show.summaries);
    },

    status(actor: Principal, id: number): BroadcastSummary {
      return show.summary(access.broadcastOf(actor, id));
    },

    /**
     * `nearcast broadcast status`: like status, but an opt-in confirmation (which shares the broadcasts' ids) is a 404
     * that says what it is, so a script never reads one as a broadcast.
     */
    promotionStatus(actor: Principal, id: number): BroadcastSummary {
      const row = access.broadcastOf(actor, id);
      if (row.kind === "confirmation") throw new NotFoundError(notABroadcast(id));
      return show.summary(row);
    },

    /** Failed deliveries that may succeed on another try go back to the queue (never an opted-out number). 409 when
     * there is none (or the broadcast was stopped). */
    retryFailed(actor: Principal, broadcastId: number): { message: string; requeued: number } {
      const row = access.broadcastOf(actor, broadcastId);
      requireApprovedOwner(repos, row.ownerId, actor);
      if (row.cancelledAt !== null) throw new ConflictError(NOTHING_TO_RETRY);
      const requeued = repos.deliveries.retryFailed(row.id, clock.now().getTime());
      if (requeued === 0) throw new ConflictError(NOTHING_TO_RETRY);
      return { message: `Requeued ${requeued} failed message${requeued === 1 ? "" : "s"}.`, requeued };
    },
  };
}
