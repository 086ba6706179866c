// The dashboard's days on the business's clock (src/lib/local-days.ts) and the word an opt-out came with.
import { expect, test } from "bun:test";
import { knownZone, lastLocalDays, localMonthStart } from "../../src/lib/local-days.ts";
import { optOutKeyword } from "../../src/services/broadcasts/business-dashboard.ts";

const iso = (t: number) => new Date(t).toISOString();

test("days begin at local midnight; the day clocks spring forward has 23 hours", () => {
  const days = lastLocalDays("America/New_York", Date.parse("2026-03-09T12:00:00Z"), 3);
  expect(days.map(([d, s, e]) => [d, iso(s), (e - s) / 3_600_000])).toEqual([
    ["2026-03-07", "2026-03-07T05:00:00.000Z", 24],
    ["2026-03-08", "2026-03-08T05:00:00.000Z", 23],
    ["2026-03-09", "2026-03-09T04:00:00.000Z", 24],
  ]);
  // Each day ends where the next begins.
  expect(days[0]![2]).toBe(days[1]![1]);
});

test("half-hour zones, today by the local clock, the month's start, and an unknown zone as UTC", () => {
  // 20:00 UTC on the 9th is already the 10th in Kolkata (UTC+5:30).
  const [today] = lastLocalDays("Asia/Kolkata", Date.parse("2026-03-09T20:00:00Z"), 1);
  expect(today).toEqual(["2026-03-10", Date.parse("2026-03-09T18:30:00Z"), Date.parse("2026-03-10T18:30:00Z")]);
  expect(iso(localMonthStart("America/Los_Angeles", Date.parse("2026-03-01T07:00:00Z")))).toBe("2026-02-01T08:00:00.000Z");
  expect(knownZone("Mars/Olympus")).toBe("UTC");
  expect(knownZone(null)).toBe("UTC");
  expect(knownZone("Europe/Paris")).toBe("Europe/Paris");
});

test("an opt-out's keyword: the word of a STOP upper-cased, else how it came", () => {
  expect(optOutKeyword("sms-stop", 'Replied "unsubscribe "')).toBe("UNSUBSCRIBE");
  expect(optOutKeyword("whatsapp-stop", 'Replied "Stop"')).toBe("STOP");
  expect(optOutKeyword("sms-stop", null)).toBe("STOP");
  expect(optOutKeyword("sms-stop", 'Replied "broken')).toBe("STOP");
  expect(optOutKeyword("subscriptions-page", "Unsubscribed on the subscriptions page")).toBe("subscriptions-page");
  expect(optOutKeyword("twilio-21610", null)).toBe("twilio-21610");
});
