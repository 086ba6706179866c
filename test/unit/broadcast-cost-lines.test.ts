// How the estimate's cost is made (issue 23, item 12): count × price = cost per channel, an MMS priced per message
// (never per segment), and a total that is the sum of the lines.
import { describe, expect, test } from "bun:test";
import { costLines, costLineText, costOfLines, MMS_PRICE_IN_SEGMENTS } from "../../src/schemas/broadcast-estimate.ts";

const PRICE = 0.0083;

describe("cost lines", () => {
  test("1,473 MMS: one line, per message at the MMS price, that adds up to the total", () => {
    const lines = costLines({ sms: 1473, whatsapp: 0, mms: true, segmentsPerMessage: 1, pricePerSegment: PRICE });
    expect(lines).toEqual([{ channel: "MMS", count: 1473, unit: "MMS", unitPrice: 0.0249, cost: 36.6777 }]);
    expect(0.0249).toBe(Math.round(PRICE * MMS_PRICE_IN_SEGMENTS * 10_000) / 10_000);
    expect(costLineText(lines[0]!)).toBe("1,473 MMS × $0.0249 = $36.68");
    expect(costOfLines(lines)).toBe(36.6777);
  });

  test("SMS by segment and WhatsApp by message, each its own line; the total is their sum", () => {
    const lines = costLines({ sms: 31, whatsapp: 17, mms: false, segmentsPerMessage: 3, pricePerSegment: PRICE });
    expect(lines.map(costLineText)).toEqual(["93 SMS segments × $0.0083 = $0.77", "17 WhatsApp messages × $0.0083 = $0.14"]);
    expect(costOfLines(lines)).toBe(Math.round((93 + 17) * PRICE * 10_000) / 10_000);
  });

  test("one of each is singular; a cost under a cent keeps its digits; nobody on a channel, no line", () => {
    const lines = costLines({ sms: 1, whatsapp: 1, mms: false, segmentsPerMessage: 1, pricePerSegment: PRICE });
    expect(lines.map(costLineText)).toEqual(["1 SMS segment × $0.0083 = $0.0083", "1 WhatsApp message × $0.0083 = $0.0083"]);
    expect(costLines({ sms: 0, whatsapp: 0, mms: true, segmentsPerMessage: 1, pricePerSegment: PRICE })).toEqual([]);
  });
});
