// Issue 24 item 6: the SMS opt-in confirmation carries the subscriptions link only where it still fits one segment.
// With the confirmation's required words (business, frequency, rates, STOP, HELP) it never does: even a one-letter
// name and the shortest public URL a link could have leave the text over 160 septets. So the confirmation carries no
// link (and, sent as one text to every new subscriber of a batch, it has no per-person token to carry). This test is
// the tripwire: if the words ever get short enough for a link to fit, it fails, and the link should be added.
import { expect, test } from "bun:test";
import { confirmationText } from "../../src/schemas/confirmation.ts";
import { countSegments, GSM7_SINGLE } from "../../src/schemas/sms-segments.ts";
import { MY_SUBSCRIPTIONS_PATH } from "../../src/services/my-subscriptions.ts";

const SHORTEST_LINK = `http://a.bc${MY_SUBSCRIPTIONS_PATH}?t=${"A".repeat(22)}`;

test("the shortest link does not fit one segment beside the confirmation's required words", () => {
  for (const doubleOptIn of [false, true]) {
    const text = confirmationText({ name: "A", messagesPerWeek: 1, doubleOptIn });
    expect(countSegments(`${text} ${SHORTEST_LINK}`).characters).toBeGreaterThan(GSM7_SINGLE);
    expect(text).not.toContain(MY_SUBSCRIPTIONS_PATH);
    expect(countSegments(text).segments).toBe(1);
  }
});
