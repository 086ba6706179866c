import * as v from "valibot";

/**
 * A text field whose "required" message is the spec's: a missing key is read as "" (a bare v.string() inside
 * v.object() would answer a missing key with valibot's own "Invalid key: Expected ..." text) and fails nonEmpty.
 */
export const text = (required: string) => v.optional(v.string(required), "");

/** A required text, trimmed: blank is told `required`, longer than `max` characters `tooLong`. */
export const requiredText = (required: string, max: number, tooLong: string) =>
  v.pipe(text(required), v.trim(), v.nonEmpty(required), v.maxLength(max, tooLong));

/** A required text, trimmed, between two lengths, each way of missing with its own message. */
export const boundedText = (required: string, [min, tooShort]: [number, string], [max, tooLong]: [number, string]) =>
  v.pipe(text(required), v.trim(), v.nonEmpty(required), v.minLength(min, tooShort), v.maxLength(max, tooLong));

/** Line breaks (CR, LF, U+2028/9) and every other control character (C0, DEL, C1): none belongs in a one-line text,
 * and a CR/LF in a value that ends up in an email header, a log line or an SMS could forge what follows it. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** True when the text holds none of CONTROL_CHARACTERS. */
export const isOneLine = (s: string): boolean => !CONTROL_CHARACTERS.test(s);
