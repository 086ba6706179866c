// Texts we write for one SMS segment (HELP, the opt-in confirmation): names folded to GSM-7 so that one accented
// letter or emoji cannot switch the whole message to UCS-2 (70 characters), and cut to fit.
import { countSegments, isGsm7 } from "./sms-segments.ts";

/** Latin letters whose stroke is not a combining mark, so NFKD leaves them whole. */
const LETTERS_WITHOUT_DECOMPOSITION: Record<string, string> = { Ł: "L", ł: "l", Đ: "D", đ: "d", Ħ: "H", ħ: "h", ı: "i", œ: "oe", Œ: "OE" };

/**
 * `text` in GSM-7 only, so a name cannot switch the whole reply to UCS-2 (70 characters): accented letters GSM-7
 * lacks lose their accent (ô -> o), anything else with no GSM-7 form (emoji, CJK, curly quotes) is dropped.
 */
export function toGsm7(text: string): string {
  let out = "";
  for (const char of text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/[\u2013\u2014]/g, "-")) {
    if (isGsm7(char)) out += char;
    else {
      const bare = (LETTERS_WITHOUT_DECOMPOSITION[char] ?? char).normalize("NFKD").replace(/\p{M}/gu, "");
      if (bare && isGsm7(bare)) out += bare;
    }
  }
  return out.replace(/\s+/g, " ").trim();
}

/** `text` cut to at most `septets` GSM-7 septets, with "..." when it was cut. */
export function fitSeptets(text: string, septets: number): string {
  const cost = (t: string) => countSegments(t).characters;
  if (cost(text) <= septets) return text;
  let out = "";
  for (const char of text) {
    if (cost(`${out}${char}...`) > septets) break;
    out += char;
  }
  return `${out.trimEnd()}...`;
}

