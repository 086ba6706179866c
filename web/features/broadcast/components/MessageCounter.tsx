import { countSegments, nonGsmCharacters, type SegmentCount } from "../../../../src/schemas/sms-segments.ts";

/** Twilio refuses an SMS body longer than this (error 21617). */
export const SMS_MAX_CHARACTERS = 1600;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** '142 / 160 · 1 SMS segment · GSM-7': what is used out of the segments it already takes. */
export function counterText(count: SegmentCount): string {
  const capacity = count.characters + count.remainingInSegment;
  return `${count.characters} / ${capacity} · ${plural(count.segments, "SMS segment")} · ${count.encoding}`;
}

/** Why the text went UCS-2, naming up to five of the characters that did it. */
export function ucs2Hint(text: string): string | null {
  const chars = nonGsmCharacters(text);
  if (chars.length === 0) return null;
  const shown = chars.slice(0, 5).join(" ");
  const hint = `${shown}${chars.length > 5 ? " …" : ""} ${chars.length === 1 ? "switches" : "switch"} SMS to UCS-2 encoding: 70 characters per segment instead of 160 (67 instead of 153 once split).`;
  // What leaving them out would save, when it saves anything.
  const now = countSegments(text).segments;
  let without = text;
  for (const c of chars) without = without.split(c).join("");
  const then = countSegments(without.trim()).segments;
  return then > 0 && then < now ? `${hint} Without ${chars.length === 1 ? "it" : "them"}: ${plural(then, "segment")} instead of ${now}.` : hint;
}

/** The live counter under the message field. */
export function MessageCounter({ id, text, count }: { id: string; text: string; count: SegmentCount }) {
  const hint = count.encoding === "UCS-2" ? ucs2Hint(text) : null;
  const tooLong = text.length > SMS_MAX_CHARACTERS;
  return (
    <div id={id} className="bc-counter">
      <span className={`bc-counter-line${count.segments > 1 ? " is-multi" : ""}`} data-testid="sms-counter">
        {counterText(count)}
      </span>
      {hint && (
        <span className="bc-counter-hint" data-testid="ucs2-hint">
          {hint}
        </span>
      )}
      {tooLong && (
        <span className="bc-counter-warn">
          {`SMS carriers accept at most ${SMS_MAX_CHARACTERS.toLocaleString("en-US")} characters; shorten the message for SMS subscribers.`}
        </span>
      )}
    </div>
  );
}
