// How many SMS segments a text costs, counted the way Twilio's message segment calculator does. Pure (no I/O,
// no imports): shared by the broadcast screen's live counter and anything on the server that wants the same number.
//
// - GSM-7 (3GPP TS 23.038 default alphabet): 160 septets in one SMS, 153 per part once the text is split (the
//   concatenation header takes 6 octets). The extension table ^ { } \ [ ] ~ | € and form feed costs 2 septets
//   (escape + character) and is never split from its escape.
// - Any character outside that alphabet (an emoji, á, ç, a curly quote...) switches the whole text to UCS-2:
//   70 UTF-16 code units in one SMS, 67 per part. A surrogate pair (2 code units) is never split across parts, and,
//   as in Twilio's calculator, neither is a grapheme cluster (👍🏽, 🇺🇸, e + combining accent) that fits in a part.
// - A part is filled greedily; when the next character does not fit it starts the next part, so a part can end
//   one unit short (remainingInSegment is then larger than plain arithmetic would say).

export type SmsEncoding = "GSM-7" | "UCS-2";

export interface SegmentCount {
  encoding: SmsEncoding;
  /** Septets (GSM-7, extension characters count 2) or UTF-16 code units (UCS-2). */
  characters: number;
  /** SMS parts the text is sent as; 0 for an empty text. */
  segments: number;
  /** Capacity of one part: 160/70 for a single SMS, 153/67 once split. */
  perSegment: number;
  /** Units still free in the last part before another part is needed. */
  remainingInSegment: number;
}

export const GSM7_SINGLE = 160;
export const GSM7_MULTI = 153;
export const UCS2_SINGLE = 70;
export const UCS2_MULTI = 67;

// The GSM 03.38 basic character set as Unicode (0x09 is mapped to Ç, as in the Unicode consortium's table and
// Twilio's calculator: lower-case ç is not GSM-7). LF and CR are in it; tab and the backtick are not.
const GSM7_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
// The extension table: each costs the escape septet plus its own.
const GSM7_EXTENDED = "\f^{}\\[~]|€";

const BASIC = new Set(GSM7_BASIC);
const EXTENDED = new Set(GSM7_EXTENDED);

/** Septets one character costs in GSM-7, or 0 when it has no GSM-7 form. */
function gsmSeptets(char: string): number {
  if (BASIC.has(char)) return 1;
  if (EXTENDED.has(char)) return 2;
  return 0;
}

/** True when every character of `text` has a GSM-7 form. */
export function isGsm7(text: string): boolean {
  for (const char of text) if (gsmSeptets(char) === 0) return false;
  return true;
}

/** The distinct characters of `text` that force UCS-2, in order of appearance (for "why 70?" hints). */
export function nonGsmCharacters(text: string): string[] {
  const out = new Set<string>();
  for (const grapheme of graphemes(text)) if (!isGsm7(grapheme)) out.add(grapheme);
  return [...out];
}

type Segmenter = { segment(text: string): Iterable<{ segment: string }> };
let segmenter: Segmenter | null | undefined;

/** Grapheme clusters when the runtime can split them (Intl.Segmenter), else code points: pairs are never cut. */
function graphemes(text: string): string[] {
  if (segmenter === undefined) {
    const Ctor = (Intl as unknown as { Segmenter?: new (locale?: string, options?: { granularity: string }) => Segmenter }).Segmenter;
    segmenter = Ctor ? new Ctor(undefined, { granularity: "grapheme" }) : null;
  }
  if (!segmenter) return [...text];
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** The indivisible pieces of `text` and what each costs, in the chosen encoding. */
function units(text: string, encoding: SmsEncoding): number[] {
  if (encoding === "GSM-7") return Array.from(text, gsmSeptets);
  const out: number[] = [];
  for (const g of graphemes(text)) {
    // A cluster too long for a part of its own (a pathological run of combining marks) is cut at code points.
    if (g.length <= UCS2_MULTI) out.push(g.length);
    else for (const cp of g) out.push(cp.length);
  }
  return out;
}

export function countSegments(text: string): SegmentCount {
  const encoding: SmsEncoding = isGsm7(text) ? "GSM-7" : "UCS-2";
  const single = encoding === "GSM-7" ? GSM7_SINGLE : UCS2_SINGLE;
  const multi = encoding === "GSM-7" ? GSM7_MULTI : UCS2_MULTI;
  const pieces = units(text, encoding);
  const characters = pieces.reduce((sum, n) => sum + n, 0);

  if (characters === 0) return { encoding, characters: 0, segments: 0, perSegment: single, remainingInSegment: single };
  if (characters <= single) {
    return { encoding, characters, segments: 1, perSegment: single, remainingInSegment: single - characters };
  }
  let segments = 1;
  let used = 0;
  for (const n of pieces) {
    if (used + n > multi) {
      segments++;
      used = 0;
    }
    used += n;
  }
  return { encoding, characters, segments, perSegment: multi, remainingInSegment: multi - used };
}
