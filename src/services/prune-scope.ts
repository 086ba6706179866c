// What `nearcast prune --older-than N` may remove. Delivery rows younger than PRUNE_MIN_DAYS never go: the owner's
// recent history and any dispute about it. Those of a broadcast with links or coupons are kept at least
// TRACKED_PRUNE_MIN_DAYS (issue 25): its clicks and redemptions live exactly as long as they do, and the results
// page and the counter need them for the weeks an offer runs.
import { ValidationError } from "../errors.ts";
import type { Repos } from "../repos/index.ts";

export const PRUNE_MIN_DAYS = 30;
export const TRACKED_PRUNE_MIN_DAYS = 90;
const DAY_MS = 86_400_000;

export interface PruneScope {
  /** Broadcasts completed before this (ms) lose their rows... */
  completedBefore: number;
  /** ...those with links or coupons only when completed before this (ms), never less than 90 days ago. */
  trackedBefore: number;
  /** The broadcasts whose rows go. */
  broadcasts: number[];
  /** Broadcasts with links or coupons completed before `completedBefore` whose rows stay (too recent). */
  keptTracked: number[];
}

export function pruneScope(repo: Pick<Repos["deliveries"], "prunableBroadcasts" | "keptTrackedBroadcasts">, olderThanDays: number, now: number): PruneScope {
  if (!(olderThanDays >= PRUNE_MIN_DAYS)) throw new ValidationError(`The age must be at least ${PRUNE_MIN_DAYS} days.`);
  const completedBefore = now - olderThanDays * DAY_MS;
  const trackedBefore = Math.min(completedBefore, now - TRACKED_PRUNE_MIN_DAYS * DAY_MS);
  return {
    completedBefore,
    trackedBefore,
    broadcasts: repo.prunableBroadcasts(completedBefore, trackedBefore),
    keptTracked: repo.keptTrackedBroadcasts(completedBefore, trackedBefore),
  };
}
