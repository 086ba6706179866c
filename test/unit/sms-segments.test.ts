// SMS segment counting (src/schemas/sms-segments.ts), checked against GSM 03.38 and Twilio's calculator rules.
import { describe, expect, test } from "bun:test";
import { countSegments, isGsm7, nonGsmCharacters } from "../../src/schemas/sms-segments.ts";

const a = (n: number) => "a".repeat(n);
const EMOJI = "😀"; // U+1F600: one surrogate pair, 2 UTF-16 code units

type Row = [string, string, { encoding: "GSM-7" | "UCS-2"; characters: number; segments: number; perSegment: number; remainingInSegment: number }];

const table: Row[] = [
  ["empty", "", { encoding: "GSM-7", characters: 0, segments: 0, perSegment: 160, remainingInSegment: 160 }],
  ["one GSM char", "a", { encoding: "GSM-7", characters: 1, segments: 1, perSegment: 160, remainingInSegment: 159 }],
  ["160 GSM chars = 1 segment", a(160), { encoding: "GSM-7", characters: 160, segments: 1, perSegment: 160, remainingInSegment: 0 }],
  ["161 = 2 segments of 153", a(161), { encoding: "GSM-7", characters: 161, segments: 2, perSegment: 153, remainingInSegment: 145 }],
  ["306 = 2", a(306), { encoding: "GSM-7", characters: 306, segments: 2, perSegment: 153, remainingInSegment: 0 }],
  ["307 = 3", a(307), { encoding: "GSM-7", characters: 307, segments: 3, perSegment: 153, remainingInSegment: 152 }],
  ["459 = 3", a(459), { encoding: "GSM-7", characters: 459, segments: 3, perSegment: 153, remainingInSegment: 0 }],
  ["extended char counts 2: { + 158 = 160", `{${a(158)}`, { encoding: "GSM-7", characters: 160, segments: 1, perSegment: 160, remainingInSegment: 0 }],
  ["extended char counts 2: { + 159 = 161", `{${a(159)}`, { encoding: "GSM-7", characters: 161, segments: 2, perSegment: 153, remainingInSegment: 145 }],
  ["all extended chars", "^{}\\[~]|€\f", { encoding: "GSM-7", characters: 20, segments: 1, perSegment: 160, remainingInSegment: 140 }],
  // 152 septets, then € (2) does not fit in the 1 septet left: it opens part 2 with its escape.
  ["escape never split from its char", `${a(152)}€${a(10)}`, { encoding: "GSM-7", characters: 164, segments: 2, perSegment: 153, remainingInSegment: 141 }],
  ["80 euro signs = 160 septets, 1 segment", "€".repeat(80), { encoding: "GSM-7", characters: 160, segments: 1, perSegment: 160, remainingInSegment: 0 }],
  ["one emoji → UCS-2: 70 units = 1", `${EMOJI}${a(68)}`, { encoding: "UCS-2", characters: 70, segments: 1, perSegment: 70, remainingInSegment: 0 }],
  ["one emoji → UCS-2: 71 units = 2 of 67", `${EMOJI}${a(69)}`, { encoding: "UCS-2", characters: 71, segments: 2, perSegment: 67, remainingInSegment: 63 }],
  ["UCS-2 134 units = 2", `${EMOJI}${a(132)}`, { encoding: "UCS-2", characters: 134, segments: 2, perSegment: 67, remainingInSegment: 0 }],
  ["UCS-2 135 units = 3", `${EMOJI}${a(133)}`, { encoding: "UCS-2", characters: 135, segments: 3, perSegment: 67, remainingInSegment: 66 }],
  // 66 units, then a pair that would straddle the 67-unit boundary: it moves whole to part 2.
  ["surrogate pair at a boundary is not split", `${a(66)}${EMOJI}${a(5)}`, { encoding: "UCS-2", characters: 73, segments: 2, perSegment: 67, remainingInSegment: 60 }],
  ["surrogate pair exactly filling part 1", `${a(65)}${EMOJI}${a(5)}`, { encoding: "UCS-2", characters: 72, segments: 2, perSegment: 67, remainingInSegment: 62 }],
  ["35 emoji = 70 units = 1 segment", EMOJI.repeat(35), { encoding: "UCS-2", characters: 70, segments: 1, perSegment: 70, remainingInSegment: 0 }],
  ["36 emoji = 72 units: 33 + 3 emoji, one unit of part 1 left empty", EMOJI.repeat(36), { encoding: "UCS-2", characters: 72, segments: 2, perSegment: 67, remainingInSegment: 61 }],
  ["in UCS-2 an extension char is one unit", `€${EMOJI}`, { encoding: "UCS-2", characters: 3, segments: 1, perSegment: 70, remainingInSegment: 67 }],
  ["é is GSM-7", "café", { encoding: "GSM-7", characters: 4, segments: 1, perSegment: 160, remainingInSegment: 156 }],
  ["á is not", "más", { encoding: "UCS-2", characters: 3, segments: 1, perSegment: 70, remainingInSegment: 67 }],
  ["newline is GSM-7 (1 septet)", "a\nb", { encoding: "GSM-7", characters: 3, segments: 1, perSegment: 160, remainingInSegment: 157 }],
];

describe("countSegments", () => {
  for (const [name, text, expected] of table) {
    test(name, () => {
      expect(countSegments(text)).toEqual(expected);
    });
  }

  test("a grapheme cluster (skin tone, flag) is kept in one part, as Twilio's calculator does", () => {
    const thumb = "👍🏽"; // 4 code units, one grapheme
    const r = countSegments(`${a(65)}${thumb}`);
    // 69 units fit a single SMS
    expect(r).toEqual({ encoding: "UCS-2", characters: 69, segments: 1, perSegment: 70, remainingInSegment: 1 });
    // 65 + 4 would cross 67: the cluster opens part 2 whole (65 | 4 + 2).
    expect(countSegments(`${a(65)}${thumb}${a(2)}`)).toEqual({ encoding: "UCS-2", characters: 71, segments: 2, perSegment: 67, remainingInSegment: 61 });
  });
});

describe("the GSM 03.38 table, character by character", () => {
  const gsm = [..."@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ!\"#¤%&'()*+,-./:;<=>?¡ÄÖÑÜ§¿äöñüà", "\n", "\r", " ", "\f", ..."^{}\\[~]|€"];
  const notGsm = [..."áíóúâêîôûãõçÀÁÈÍÒÓÚÙëïÿ`«»“”‘’–—…•¢©®°", "\t", "\u00a0", EMOJI, "ñ\u0303"];

  test.each(gsm)("%p is GSM-7", (char) => {
    expect(isGsm7(char)).toBe(true);
    expect(countSegments(char).encoding).toBe("GSM-7");
  });

  test.each(notGsm)("%p is not GSM-7", (char) => {
    expect(isGsm7(char)).toBe(false);
    expect(countSegments(char).encoding).toBe("UCS-2");
  });

  test("Ç (capital) is in the basic set, ç (small) is not", () => {
    expect(isGsm7("Ç")).toBe(true);
    expect(isGsm7("ç")).toBe(false);
  });

  test("letters and digits are GSM-7", () => {
    expect(isGsm7("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")).toBe(true);
  });
});

describe("nonGsmCharacters", () => {
  test("lists the distinct characters that force UCS-2, in order, emoji clusters whole", () => {
    expect(nonGsmCharacters("Sale 😀 más 😀 👍🏽 ça")).toEqual(["😀", "á", "👍🏽", "ç"]);
    expect(nonGsmCharacters("plain GSM text € {}")).toEqual([]);
  });
});
