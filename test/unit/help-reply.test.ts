// HELP (issue 11 item 8): the business, its phone and how to stop, always one GSM-7 segment (160 septets).
import { expect, test } from "bun:test";
import { HELP_MAX, helpReply, toGsm7 } from "../../src/services/inbound-messages.ts";
import { countSegments } from "../../src/schemas/sms-segments.ts";

const oneSegment = (text: string) => {
  const c = countSegments(text);
  expect(c.encoding).toBe("GSM-7");
  expect(c.characters).toBeLessThanOrEqual(HELP_MAX);
  expect(c.segments).toBe(1);
};

test("a short name: the whole text, with the contact phone, rates and STOP", () => {
  const text = helpReply({ name: "Rosa's Bakery", phone: "+14155550100" }, "Nearcast");
  expect(text).toBe(
    "Nearcast: You are subscribed to messages from Rosa's Bakery. Contact: +14155550100. Msg & data rates may apply. Reply STOP to unsubscribe.",
  );
  oneSegment(text);
});

test("a long name is cut with ... so the reply is exactly one segment; the fixed parts stay whole", () => {
  const name = "The Extraordinarily Long-Named Family Bakery, Patisserie and Coffee Roastery of Greater Springfield";
  const text = helpReply({ name, phone: "+14155550100" }, "Main Street Deals");
  oneSegment(text);
  expect(text).toStartWith("Main Street Deals: You are subscribed to messages from The Extraordinarily");
  expect(text).toContain("... Contact: +14155550100. Msg & data rates may apply. Reply STOP to unsubscribe.");
  expect(countSegments(text).characters).toBeGreaterThan(HELP_MAX - 4);
});

test("a long brand and a long phone text are capped too; extended GSM characters count twice", () => {
  const text = helpReply(
    { name: "[Best] {Deals} ~ Euro € shop with a long long long name", phone: "+1 (415) 555-0100 ext. 12345 ask for Rosa" },
    "A Very Long Brand Name For The Whole Town Of Springfield",
  );
  oneSegment(text);
  expect(text).toContain("Reply STOP to unsubscribe.");
});

test("characters GSM-7 lacks: accents are stripped, emoji and other scripts dropped, so it stays 160 not 70", () => {
  expect(toGsm7("Café Crème 🥐 Boulangerie “Chez Lôc” 日本")).toBe('Café Crème Boulangerie "Chez Loc"');
  const text = helpReply({ name: "Ōsaka Ramen 🍜 Łódź Café Crème Brûlée House 北京", phone: "+14155550100" }, "Nearcast");
  oneSegment(text);
  expect(text).toContain("messages from Osaka Ramen Lodz Café Crème");
});

test("not subscribed: says so, with rates and STOP, one segment", () => {
  const text = helpReply(undefined, "Nearcast");
  expect(text).toBe("Nearcast: You are not subscribed to any business. Msg & data rates may apply. Reply STOP to unsubscribe.");
  oneSegment(text);
});
