// CancelBroadcast (issue 23 item 8): a scheduled broadcast that has not started will never be sent, and one that is
// sending stops: what is not yet handed to the provider becomes Cancelled, what is in flight finishes and is counted.
// The write is one transaction against the dispatcher's claim (src/repos/sql/broadcast-stop.ts).
import * as v from "valibot";
import { ConflictError, NotFoundError } from "../../errors.ts";
import { scheduleUpdateSchema } from "../../schemas/broadcast-input.ts";
import type { BroadcastSummary } from "../../schemas/broadcasts.ts";
import type { Principal } from "../principal.ts";
import { validateForm } from "../validate.ts";
import { BROADCAST_NOT_FOUND } from "./access.ts";
import type { BroadcastParts } from "./parts.ts";
import { ALREADY_CANCELLED } from "./schedule.ts";

export const ALREADY_FINISHED = "This broadcast has finished sending; there is nothing left to stop.";
export const SCHEDULED_CANCELLED = "Scheduled broadcast cancelled; it will not be sent.";

export function stoppedMessage(cancelled: number): string {
  const n = `${cancelled} message${cancelled === 1 ? "" : "s"}`;
  return `Broadcast stopped: ${n} not yet sent ${cancelled === 1 ? "was" : "were"} cancelled; messages already on their way will finish.`;
}

export function stopping({ repos, clock, access, show }: BroadcastParts) {
  return {
    /** POST CancelBroadcast: any unfinished broadcast (scheduled, or sending). 404 for another owner's, 409 once it
     * was cancelled or has finished. */
    cancel(actor: Principal, broadcastId: unknown): { message: string; cancelled: number; broadcast: BroadcastSummary } {
      const id = validateForm(v.pick(scheduleUpdateSchema, ["broadcastId"]), { broadcastId }).broadcastId;
      const row = access.broadcastOf(actor, id);
      // An opt-in confirmation shares the broadcasts table; it is not the owner's to stop.
      if (row.kind === "confirmation") throw new NotFoundError(BROADCAST_NOT_FOUND);
      const waiting = row.startedAt === null && row.scheduledFor !== null;
      const stopped = repos.deliveries.stopBroadcast(id, clock.now().getTime());
      if (!stopped) {
        const now = repos.broadcasts.findById(id);
        throw new ConflictError(now?.cancelledAt ? ALREADY_CANCELLED : ALREADY_FINISHED);
      }
      const message = waiting ? SCHEDULED_CANCELLED : stoppedMessage(stopped.cancelled);
      return { message, cancelled: stopped.cancelled, broadcast: show.summary(repos.broadcasts.findById(id)!) };
    },
  };
}
