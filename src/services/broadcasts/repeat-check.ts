// The repeat check (issue 10, item 8): a publish of the same text to the same business within REPEAT_WINDOW_MS asks
// for confirmation (Confirm=true) instead of sending it twice.
import { AppError } from "../../errors.ts";
import type { Repos } from "../../repos/index.ts";

export const REPEAT_WINDOW_MS = 10 * 60_000;
export const DUPLICATE_BROADCAST =
  "This business sent this same message less than 10 minutes ago. To send it again, confirm (Confirm=true).";

/** 409: the publish repeats a recent broadcast (`duplicateOf`); sent only with Confirm=true. */
export class DuplicateBroadcastError extends AppError {
  constructor(readonly duplicateOf: number) {
    super(409, "duplicate_broadcast", DUPLICATE_BROADCAST);
  }
}

/** 409 when the business got a broadcast with this very text within REPEAT_WINDOW_MS. Same text, whatever the
 * image: the customers would read the same words twice. Only the business's own broadcasts count. */
export function refuseRepeat(repos: Repos, businessId: number, messageText: string, now: number): void {
  const earlier = repos.broadcasts.latestWithText(businessId, messageText, now - REPEAT_WINDOW_MS);
  if (earlier) throw new DuplicateBroadcastError(earlier.id);
}
