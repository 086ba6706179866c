// Calendar days on a business's clock: where each local day begins and ends, in ms since the epoch (daylight saving
// days are 23 or 25 hours long). Pure, on Intl, so the dashboard counts days as the owner lives them.

const formats = new Map<string, Intl.DateTimeFormat>();
const formatFor = (zone: string) => {
  let f = formats.get(zone);
  if (!f) formats.set(zone, (f = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  })));
  return f;
};

const parts = (zone: string, t: number) => {
  const p = formatFor(zone).formatToParts(t);
  const n = (type: string) => Number(p.find((x) => x.type === type)!.value);
  return { y: n("year"), m: n("month"), d: n("day"), h: n("hour"), mi: n("minute"), s: n("second") };
};

/** How far `zone`'s clock is ahead of UTC at `t` (ms). */
function offsetAt(zone: string, t: number): number {
  const p = parts(zone, t);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.mi, p.s) - (t - (((t % 1000) + 1000) % 1000));
}

/** The instant `zone`'s clock reads 00:00 on the given date (month 1-12; days past the month's end roll over). */
export function localMidnight(zone: string, y: number, m: number, d: number): number {
  const wall = Date.UTC(y, m - 1, d);
  const first = wall - offsetAt(zone, wall);
  return wall - offsetAt(zone, first);
}

/** `zone` when Intl knows it, else "UTC". */
export function knownZone(zone: string | null | undefined): string {
  if (!zone) return "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone;
  } catch {
    return "UTC";
  }
}

const dayName = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The last `n` local days up to and including today, oldest first: ["YYYY-MM-DD", start, end). */
export function lastLocalDays(zone: string, now: number, n: number): [string, number, number][] {
  const today = parts(zone, now);
  return Array.from({ length: n }, (_, i) => {
    const offset = i - (n - 1);
    const name = dayName(Date.UTC(today.y, today.m - 1, today.d + offset));
    return [name, localMidnight(zone, today.y, today.m, today.d + offset), localMidnight(zone, today.y, today.m, today.d + offset + 1)];
  });
}

/** When this month began on `zone`'s clock. */
export function localMonthStart(zone: string, now: number): number {
  const today = parts(zone, now);
  return localMidnight(zone, today.y, today.m, 1);
}
