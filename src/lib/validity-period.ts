// How long Twilio may keep a marketing message in its queue (ValidityPeriod, issue 23 item 5): until the recipient's
// quiet hours begin, so that nothing held up at Twilio (its queue, a carrier's throughput) arrives after 20:00. Twilio
// takes 1 to 36,000 s; with less than a minute left the message is not handed over at all but held to the next window,
// as the quiet hours hold any other.
import { instantOf, nextAllowed, nextAllowedInZone, type QuietSpan, wall } from "./quiet-hours.ts";

/** Twilio's range for ValidityPeriod, in seconds (Messages create in twilio_api_v2010.json). */
export const MAX_VALIDITY_SECONDS = 36_000;
/** Less than this left before quiet hours: hold the message to the next window instead. */
export const MIN_VALIDITY_SECONDS = 60;

const DAY = 86_400_000;
const MINUTE = 60_000;

/** The instant quiet hours next begin in `zone`, for a `now` outside them there. */
export function nextQuietStartInZone(now: number, zone: string, span: QuietSpan): number {
  const w = wall(now, zone);
  const minuteOfDay = Math.floor((w % DAY) / MINUTE);
  const midnight = w - (w % DAY);
  // Outside the span: before its start today, or (a span within one day) past its end, and then it starts tomorrow.
  return instantOf(midnight + span.start * MINUTE + (minuteOfDay < span.start ? 0 : DAY), zone);
}

/**
 * For a message that may go now (outside the quiet span in every one of `zones`): the ValidityPeriod to send it with
 * (seconds until quiet hours begin in the first of its zones, at most 36,000), or, with less than a minute left, the
 * instant to hold it until (the end of the quiet hours about to begin).
 */
export function validityPeriod(now: number, zones: readonly string[], span: QuietSpan): { seconds: number } | { holdUntil: number } {
  if (zones.length === 0) return { seconds: MAX_VALIDITY_SECONDS };
  let quietAt = Number.POSITIVE_INFINITY;
  let first = zones[0]!;
  for (const zone of zones) {
    const at = nextQuietStartInZone(now, zone, span);
    if (at < quietAt) [quietAt, first] = [at, zone];
  }
  const seconds = Math.floor((quietAt - now) / 1000);
  if (seconds >= MIN_VALIDITY_SECONDS) return { seconds: Math.min(MAX_VALIDITY_SECONDS, seconds) };
  return { holdUntil: nextAllowed(quietAt, zones, span) ?? nextAllowedInZone(quietAt, first, span) };
}
