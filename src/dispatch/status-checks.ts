// When the outcome of a message sent without a status callback is looked up (issue 23, item 4): soon after the send,
// when most messages are settled, then less and less often, for a day; a message still not final after that stays
// Sent (Twilio settles nearly everything within minutes, and its 10-hour validity period at most).

/** Look-ups after the send: 1 min, 5 min, 30 min, 2 h, 8 h, 24 h. */
export const STATUS_CHECKS_AFTER_MS: readonly number[] = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 8 * 3_600_000, 24 * 3_600_000];

/** The first look-up of a message sent at `sentAt`. */
export function firstStatusCheck(sentAt: number): number {
  return sentAt + STATUS_CHECKS_AFTER_MS[0]!;
}

/** The next look-up after `now` of a message sent at `sentAt`; null when the day of look-ups is over. */
export function nextStatusCheck(sentAt: number, now: number): number | null {
  for (const after of STATUS_CHECKS_AFTER_MS) if (sentAt + after > now) return sentAt + after;
  return null;
}
