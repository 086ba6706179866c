// Quiet hours: when a marketing text may reach a person, in their local time (TCPA and state rules: none before
// 08:00 or after 20:00). Pure arithmetic on instants and IANA zones (Intl does the zone rules, DST included), so the
// claim can ask "when may this go?" without a table of offsets.

/** A quiet span in local minutes of the day, [start, end); it wraps past midnight when start > end. */
export interface QuietSpan {
  start: number;
  end: number;
}

const SPAN = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;

/** "HH:MM-HH:MM" -> the span, "off" -> null (send at any hour); undefined when the text is neither (or empty). */
export function parseQuietHours(text: string): QuietSpan | null | undefined {
  const s = text.trim().toLowerCase();
  if (s === "off") return null;
  const m = SPAN.exec(s);
  if (!m) return undefined;
  const start = Number(m[1]) * 60 + Number(m[2]);
  const end = Number(m[3]) * 60 + Number(m[4]);
  return start === end ? undefined : { start, end };
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall clock in `zone` at `at`, as if it were UTC (so calendar arithmetic is plain Date.UTC). */
export function wall(at: number, zone: string): number {
  const p = Object.fromEntries(formatter(zone).formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
}

/** The first instant at or after the local wall time `w` in `zone` (a wall time skipped by a DST jump forward
 * becomes the moment the clocks jump). */
export function instantOf(w: number, zone: string): number {
  let t = w;
  for (let i = 0; i < 3; i++) t = w - (wall(t, zone) - t);
  if (wall(t, zone) === w) return t;
  // In a spring-forward gap no instant has this wall time: the answer is the jump, the first instant whose wall time
  // is past it (found by halving, to the minute, within the few hours around the gap).
  let lo = t - 3 * 3_600_000;
  let hi = t + 3 * 3_600_000;
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (wall(mid, zone) >= w) hi = mid;
    else lo = mid;
  }
  return hi;
}

const DAY = 86_400_000;
const MINUTE = 60_000;

function inSpan(minuteOfDay: number, span: QuietSpan): boolean {
  return span.start < span.end ? minuteOfDay >= span.start && minuteOfDay < span.end : minuteOfDay >= span.start || minuteOfDay < span.end;
}

/** When a message may go in one zone: `now` itself outside the quiet span, else the instant the span ends. */
export function nextAllowedInZone(now: number, zone: string, span: QuietSpan): number {
  const w = wall(now, zone);
  const minuteOfDay = Math.floor((w % DAY) / MINUTE);
  if (!inSpan(minuteOfDay, span)) return now;
  const midnight = w - (w % DAY);
  // The end is later today when we are before it (past midnight in a wrapping span, or any non-wrapping span), else tomorrow.
  const endWall = midnight + span.end * MINUTE + (minuteOfDay < span.end ? 0 : DAY);
  return Math.max(now, instantOf(endWall, zone));
}

/**
 * When a message may go to a number in all of `zones` (the most restrictive: inside the window in EVERY zone).
 * null when the zones share no allowed moment within two days (the caller then falls back to one zone).
 */
export function nextAllowed(now: number, zones: readonly string[], span: QuietSpan | null): number | null {
  if (span === null || zones.length === 0) return now;
  let t = now;
  for (let round = 0; round < 2 * zones.length + 4; round++) {
    const next = Math.max(...zones.map((z) => nextAllowedInZone(t, z, span)));
    if (next === t) return t;
    if (next - now > 2 * DAY) return null;
    t = next;
  }
  return null;
}
