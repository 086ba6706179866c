// The one number rule at the doors where a number comes in (the public page, an owner's add and edit, an import,
// the owner's own phone): the typed text to E.164, then textableNumberProblem (src/schemas/subscribe-number.ts)
// with the allowed countries of the moment. A 400 on `phone` with the public page's sentences.
import { ValidationError } from "../errors.ts";
import { looksLikeShortCode, SHORT_CODE, type TextableNumber, textableNumberProblem, typedNumberVerdict } from "../schemas/subscribe-number.ts";
import { toE164 } from "../schemas/phone.ts";
import { INVALID_PHONE } from "../schemas/texts.ts";

/** The E.164 form of a typed number, or a 400 on the phone field with the spec's text. */
export function e164OrThrow(raw: string, defaultCountry: string): string {
  const phone = toE164(raw, defaultCountry);
  if (!phone) throw new ValidationError(INVALID_PHONE, { phone: INVALID_PHONE });
  return phone;
}

/** A 400 naming `phone` when the rules refuse this E.164 number (allowed countries, mobile only). */
export function refuseUntextable(phone: string, allowedCountries: string[] | null): void {
  const problem = textableNumberProblem(phone, allowedCountries);
  if (problem) throw new ValidationError(problem, { phone: problem });
}

/** A typed number we may store and text (its E.164 form and country), or a ValidationError naming `phone`. */
export function textableOrThrow(raw: string, defaultCountry: string, allowedCountries: string[] | null): TextableNumber {
  if (looksLikeShortCode(raw)) throw new ValidationError(SHORT_CODE, { phone: SHORT_CODE });
  const verdict = typedNumberVerdict(raw, defaultCountry, allowedCountries);
  if ("problem" in verdict) throw new ValidationError(verdict.problem, { phone: verdict.problem });
  return verdict;
}
