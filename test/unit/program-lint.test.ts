// The carriers' checks on a programme's words (src/services/registration/program-lint.ts): the consent text the
// subscribe page shows passes them; one without a disclosure is named; samples must name the business and say STOP.
import { expect, test } from "bun:test";
import { consentText } from "../../src/schemas/consent.ts";
import { lintProgram, missingDisclosures, sampleIsCompliant } from "../../src/services/registration/program-lint.ts";

test("the subscribe page's consent text has every disclosure, for any frequency", () => {
  for (const n of [1, 4, 50]) expect(missingDisclosures(consentText({ name: "Rosa's Bakery", messagesPerWeek: n }), "Rosa's Bakery", n)).toEqual([]);
});

test("a consent text without the frequency, the rates, HELP or the legal pages: each is named", () => {
  expect(missingDisclosures("Get deals from Rosa's Bakery. Reply STOP to cancel.", "Rosa's Bakery", 4)).toEqual([
    "the message frequency",
    '"Msg & data rates may apply"',
    "HELP",
    "the Terms",
    "the Privacy Policy",
  ]);
  expect(missingDisclosures(consentText({ name: "Rosa's Bakery", messagesPerWeek: 4 }), "Another Shop", 4)).toEqual(["the business name"]);
});

test("samples: the business's name and STOP, in any case", () => {
  expect(sampleIsCompliant("ROSA'S BAKERY: 2 for 1 today. Reply stop to opt out.", "Rosa's Bakery")).toBe(true);
  expect(sampleIsCompliant("2 for 1 today. Reply STOP to opt out.", "Rosa's Bakery")).toBe(false);
  expect(sampleIsCompliant("Rosa's Bakery: 2 for 1 today. Unstoppable deals!", "Rosa's Bakery")).toBe(false);
  const problems = lintProgram({ businessName: "Rosa's Bakery", messagesPerWeek: 4, consent: "Deals.", samples: ["Deals!"], skippedBroadcasts: 0 });
  expect(problems).toHaveLength(2);
  expect(problems[0]).toStartWith("The consent text lacks the business name, the message frequency");
  expect(problems[1]).toBe('1 sample message(s) do not name Rosa\'s Bakery or say "Reply STOP": edit them before pasting.');
});
