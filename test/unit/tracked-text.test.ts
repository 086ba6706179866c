import { expect, test } from "bun:test";
import { replaceUrls, textAsSent, urlsIn } from "../../src/schemas/tracked-text.ts";
test("URLs are found without the sentence's punctuation, replaced in order, and counted at the short link's length", () => {
  const t = "Fresh bread! See https://bakery.example/menu?x=1. Or http://a.b/c, {code}";
  expect(urlsIn(t)).toEqual(["https://bakery.example/menu?x=1", "http://a.b/c"]);
  expect(replaceUrls(t, (i) => `L${i}`)).toBe("Fresh bread! See L0. Or L1, {code}");
  expect(textAsSent(t, { shortLinkBase: "https://s.co", uniqueCoupons: true })).toBe("Fresh bread! See https://s.co/l/xxxxxxxx. Or https://s.co/l/xxxxxxxx, XXXXXXXX");
});
