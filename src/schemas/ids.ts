import * as v from "valibot";

/** A database id as text: 1 to 16 digits, no sign, no leading zero (query strings, CLI arguments, form fields). */
export const ID_TEXT = /^[1-9]\d{0,15}$/;

/** The id a text names, or null when it is not one. */
export function parseIdText(raw: string | null | undefined): number | null {
  const s = raw?.trim();
  return s && ID_TEXT.test(s) ? Number(s) : null;
}

/** A positive whole-number id, given as a number or as its text. */
export const positiveId = (message: string) =>
  v.pipe(
    v.union([v.number(message), v.pipe(v.string(message), v.trim(), v.regex(ID_TEXT, message), v.transform(Number))], message),
    v.integer(message),
    v.minValue(1, message),
  );
