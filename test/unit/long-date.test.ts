// The legal pages' date without Intl (src/schemas/long-date.ts) says what Intl's en-US long date says, every month.
import { expect, test } from "bun:test";
import { isoDay, longDate } from "../../src/schemas/long-date.ts";

test("longDate matches Intl's en-US long date on the first and last day of every month, at the day's two ends", () => {
  for (let month = 0; month < 12; month++) {
    for (const day of [new Date(2031, month, 1, 0, 0), new Date(2031, month + 1, 0, 23, 59)]) {
      expect(longDate(day)).toBe(day.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" }));
    }
  }
});

test("isoDay is the local day, zero-padded", () => {
  expect(isoDay(new Date(2031, 2, 5, 0, 0))).toBe("2031-03-05");
  expect(isoDay(new Date(2030, 11, 31, 23, 59))).toBe("2030-12-31");
});
