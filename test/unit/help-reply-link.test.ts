// HELP with the link to the person's subscriptions page (issue 24 item 6): two GSM-7 segments at most with the link,
// one without; the name gives way first, and a link that would not leave room (or is not GSM-7) is left out.
import { expect, test } from "bun:test";
import { HELP_MAX, HELP_MAX_WITH_LINK, helpReply } from "../../src/services/keyword-replies.ts";
import { countSegments } from "../../src/schemas/sms-segments.ts";

const LINK = "https://deals.example.com/my-subscriptions?t=AbCdEfGhIjKlMnOpQrStUv";
const ROSA = { name: "Rosa's Bakery", phone: "+14155550100" };

test("with a link: the link after the contact, then rates and STOP; two GSM-7 segments at most", () => {
  const text = helpReply(ROSA, "Nearcast", LINK);
  expect(text).toBe(
    `Nearcast: You are subscribed to messages from Rosa's Bakery. Contact: +14155550100. Manage your subscriptions: ${LINK} Msg & data rates may apply. Reply STOP to unsubscribe.`,
  );
  const c = countSegments(text);
  expect(c.encoding).toBe("GSM-7");
  expect(c.segments).toBe(2);
  expect(c.characters).toBeLessThanOrEqual(HELP_MAX_WITH_LINK);
});

test("a long name and brand with a link: the name is cut, the link stays whole, still two segments", () => {
  const name = "The Extraordinarily Long-Named Family Bakery, Patisserie and Coffee Roastery of Greater Springfield and Shelbyville Ōsaka 🍜";
  const text = helpReply({ name, phone: "+14155550100 ext. 12345678901234" }, "A Very Long Brand Name For Deals Everywhere", LINK);
  const c = countSegments(text);
  expect(c.encoding).toBe("GSM-7");
  expect(c.segments).toBe(2);
  expect(text).toContain(`Manage your subscriptions: ${LINK} Msg & data rates may apply. Reply STOP to unsubscribe.`);
  expect(text).toContain("...");
});

test("no link (no public URL saved): the one-segment reply, as before", () => {
  const text = helpReply(ROSA, "Nearcast", null);
  expect(text).toBe(helpReply(ROSA, "Nearcast"));
  expect(text).not.toContain("my-subscriptions");
  expect(countSegments(text).characters).toBeLessThanOrEqual(HELP_MAX);
});

test("a link that is not GSM-7 or too long is left out: the reply stays one segment", () => {
  for (const link of ["https://kōbe.example.com/my-subscriptions?t=abc", `https://example.com/${"x".repeat(150)}`]) {
    const text = helpReply(ROSA, "Nearcast", link);
    expect(text).toBe(helpReply(ROSA, "Nearcast"));
    expect(countSegments(text).segments).toBe(1);
  }
});

test("not subscribed: no link, whatever is passed", () => {
  expect(helpReply(undefined, "Nearcast", LINK)).toBe("Nearcast: You are not subscribed to any business. Msg & data rates may apply. Reply STOP to unsubscribe.");
});
