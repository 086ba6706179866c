// Issue 23, item 5: ValidityPeriod is the time left before the recipient's quiet hours begin (src/lib/validity-period.ts).
import { describe, expect, test } from "bun:test";
import { parseQuietHours } from "../../src/lib/quiet-hours.ts";
import { nextQuietStartInZone, validityPeriod } from "../../src/lib/validity-period.ts";

const EVENINGS = parseQuietHours("20:00-08:00")!;
const utc = (iso: string) => Date.parse(iso);
const NY = "America/New_York";
const LA = "America/Los_Angeles";

describe("validityPeriod", () => {
  test("the seconds until 20:00 in the recipient's zone", () => {
    // 12:00 in New York (EST, UTC-5): 8 hours left.
    expect(validityPeriod(utc("2026-01-15T17:00:00Z"), [NY], EVENINGS)).toEqual({ seconds: 8 * 3600 });
    // 17:30:15 in Los Angeles (PST): 2 h 29 min 45 s.
    expect(validityPeriod(utc("2026-01-16T01:30:15Z"), [LA], EVENINGS)).toEqual({ seconds: 2 * 3600 + 29 * 60 + 45 });
  });

  test("at most Twilio's 36,000 s: from 08:00 twelve hours are left", () => {
    expect(validityPeriod(utc("2026-01-15T13:00:00Z"), [NY], EVENINGS)).toEqual({ seconds: 36_000 });
    expect(validityPeriod(utc("2026-01-15T14:00:00Z"), [NY], EVENINGS)).toEqual({ seconds: 36_000 });
    expect(validityPeriod(utc("2026-01-15T15:00:01Z"), [NY], EVENINGS)).toEqual({ seconds: 35_999 });
  });

  test("the window's edge: a minute left still goes with 60 s; less is held to 08:00 the next morning", () => {
    expect(validityPeriod(utc("2026-01-16T00:59:00Z"), [NY], EVENINGS)).toEqual({ seconds: 60 });
    expect(validityPeriod(utc("2026-01-16T00:59:00.500Z"), [NY], EVENINGS)).toEqual({ holdUntil: utc("2026-01-16T13:00:00Z") });
    expect(validityPeriod(utc("2026-01-16T00:59:59Z"), [NY], EVENINGS)).toEqual({ holdUntil: utc("2026-01-16T13:00:00Z") });
  });

  test("a number in several zones: the first zone whose quiet hours begin", () => {
    // 17:00 in New York is 14:00 in Los Angeles: New York's 20:00 comes first, in 3 hours.
    expect(validityPeriod(utc("2026-01-15T22:00:00Z"), [LA, NY], EVENINGS)).toEqual({ seconds: 3 * 3600 });
    // 19:59:30 in New York, 16:59:30 in Los Angeles: held until 08:00 in both (Los Angeles, the later one).
    expect(validityPeriod(utc("2026-01-16T00:59:30Z"), [NY, LA], EVENINGS)).toEqual({ holdUntil: utc("2026-01-16T16:00:00Z") });
  });

  test("a span within one day: past its end, the next one starts tomorrow", () => {
    const lunch = parseQuietHours("12:00-13:00")!;
    // 14:00 in Berlin (CET): 22 hours until tomorrow's 12:00, so Twilio's maximum.
    expect(validityPeriod(utc("2026-01-15T13:00:00Z"), ["Europe/Berlin"], lunch)).toEqual({ seconds: 36_000 });
    // 11:00 in Berlin: one hour.
    expect(validityPeriod(utc("2026-01-15T10:00:00Z"), ["Europe/Berlin"], lunch)).toEqual({ seconds: 3600 });
  });

  test("across a daylight-saving change the hours are real hours", () => {
    // New York springs forward on 2026-03-08 at 02:00. From 01:00 EST to 05:00 EDT is 3 hours, not 4.
    const early = parseQuietHours("05:00-06:00")!;
    expect(validityPeriod(utc("2026-03-08T06:00:00Z"), [NY], early)).toEqual({ seconds: 3 * 3600 });
    // A quiet start inside the skipped hour (02:30) begins when the clocks jump, 02:00 EST = 07:00 UTC.
    const gap = parseQuietHours("02:30-06:00")!;
    expect(nextQuietStartInZone(utc("2026-03-08T05:00:00Z"), NY, gap)).toBe(utc("2026-03-08T07:00:00Z"));
    // Falling back on 2026-11-01: from 00:30 EDT to 05:00 EST is 5 h 30 min.
    expect(validityPeriod(utc("2026-11-01T04:30:00Z"), [NY], early)).toEqual({ seconds: 5.5 * 3600 });
  });
});
