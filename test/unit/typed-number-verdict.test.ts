import { describe, expect, test } from "bun:test";
import { getCountries, getCountryCallingCode, getExampleNumber } from "libphonenumber-js/max";
import examples from "libphonenumber-js/mobile/examples";
import { toE164 } from "../../src/schemas/phone.ts";
import { NOT_A_MOBILE, textableNumberProblem, typedNumberVerdict } from "../../src/schemas/subscribe-number.ts";
import { INVALID_PHONE } from "../../src/schemas/texts.ts";
import { whatsappMarketingReachable } from "../../src/schemas/whatsapp-marketing.ts";

// The subscribe path parses a typed number once (typedNumberVerdict); the rule was written as three parses (toE164
// with the short metadata, textableNumberProblem with the full one, the WhatsApp country). Both must answer alike.
function threeParses(raw: string, defaultCountry: string, allowed: string[] | null): string {
  const phone = toE164(raw, defaultCountry);
  if (!phone) return INVALID_PHONE;
  return textableNumberProblem(phone, allowed) ?? `${phone} ${whatsappMarketingReachable(phone)}`;
}

function oneParse(raw: string, defaultCountry: string, allowed: string[] | null): string {
  const v = typedNumberVerdict(raw, defaultCountry, allowed);
  return "problem" in v ? v.problem : `${v.phone} ${whatsappMarketingReachable(v.phone, v.country)}`;
}

/** Typed numbers: a few per +1 area code, each country's example mobile number cut and extended, some bare digits. */
function typedNumbers(): [string, string][] {
  let seed = 7;
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const digits = (n: number) => Array.from({ length: n }, () => random(10)).join("");
  const out: [string, string][] = [];
  for (let area = 200; area <= 999; area++) {
    const n = `${area}${200 + random(800)}${digits(4)}`;
    out.push([`(${area}) ${n.slice(3, 6)}-${n.slice(6)}`, "US"], [`+1${n}`, "GB"], [`1${n}`, "CA"]);
  }
  for (const country of getCountries()) {
    const example = getExampleNumber(country, examples);
    if (!example) continue;
    const code = getCountryCallingCode(country);
    for (let k = 0; k < 6; k++) {
      const national = example.nationalNumber.slice(0, example.nationalNumber.length - random(3)) + digits(random(3));
      out.push([`+${code} ${national}`, "US"], [national, country], [`0${national}`, country]);
    }
  }
  for (let k = 0; k < 500; k++) out.push([digits(1 + random(17)), ["US", "GB", "DE", "IN"][random(4)]!]);
  return out;
}

describe("typedNumberVerdict: the rule in one parse", () => {
  const numbers = typedNumbers();

  test("answers as the three parses do: the text, or the E.164 and whether WhatsApp promotions reach it", () => {
    const kinds = new Set<string>();
    for (const [raw, country] of numbers) {
      for (const allowed of [null, ["US", "CA"]]) {
        const expected = threeParses(raw, country, allowed);
        kinds.add(expected.startsWith("+") ? expected.split(" ")[1]! : expected);
        expect({ raw, country, allowed, answer: oneParse(raw, country, allowed) }).toEqual({ raw, country, allowed, answer: expected });
      }
    }
    // The sample reaches every answer: invalid, not a mobile, another country, reachable and not on WhatsApp.
    expect([...kinds].sort()).toEqual(["Only mobile numbers from US, CA can subscribe here.", INVALID_PHONE, NOT_A_MOBILE, "false", "true"].sort());
  });

  test("a number the full metadata refuses but the short one takes is NOT_A_MOBILE, as before; a malformed one INVALID_PHONE", () => {
    // +358 762844: the short metadata's shape for Finland, no number range of the full one.
    expect(toE164("+358762844", "US")).toBe("+358762844");
    expect(oneParse("+358762844", "US", null)).toBe(NOT_A_MOBILE);
    expect(oneParse("12", "US", null)).toBe(INVALID_PHONE);
    expect(oneParse("(415) 555-0134 x", "US", null)).toBe(INVALID_PHONE);
    expect(oneParse("+1 555 555 5555", "US", null)).toBe(INVALID_PHONE);
  });
});
