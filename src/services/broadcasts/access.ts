// Who may do what with a business's broadcasts: the tenancy checks every broadcast job starts with.
import { ForbiddenError, NotFoundError } from "../../errors.ts";
import type { BroadcastRow } from "../../repos/broadcasts.ts";
import type { Repos } from "../../repos/index.ts";
import { BUSINESS_NOT_FOUND, NOT_YOUR_BUSINESS } from "../../schemas/texts.ts";
import { requireApprovedOwner } from "../owner-approval.ts";
import { type Principal, canManage } from "../principal.ts";

export const BROADCAST_NOT_FOUND = "Broadcast not found.";

export function broadcastAccess(repos: Repos) {
  return {
    /** A business the actor may read (another owner's: 404, as for every other read). */
    readable(actor: Principal, businessId: number) {
      const row = repos.businesses.findById(businessId);
      if (!row || !canManage(actor, row)) throw new NotFoundError(BUSINESS_NOT_FOUND);
      return row;
    },

    /** The business a broadcast goes to: 404 when there is none, 403 when it is another owner's. */
    sendable(actor: Principal, businessId: number) {
      const business = repos.businesses.findById(businessId);
      if (!business) throw new NotFoundError(BUSINESS_NOT_FOUND);
      if (!canManage(actor, business)) throw new ForbiddenError(NOT_YOUR_BUSINESS);
      requireApprovedOwner(repos, business.ownerId, actor);
      return business;
    },

    /** A broadcast of a business the actor manages (anyone else's: 404). */
    broadcastOf(actor: Principal, id: number): BroadcastRow {
      const row = repos.broadcasts.findById(id);
      if (!row || !canManage(actor, row)) throw new NotFoundError(BROADCAST_NOT_FOUND);
      return row;
    },
  };
}

export type BroadcastAccess = ReturnType<typeof broadcastAccess>;
