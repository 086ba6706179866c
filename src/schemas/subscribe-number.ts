// Which numbers we store and text (SMS pumping: a form or an account that makes us text any number is a way to bill
// us for texts to premium-rate numbers). Only numbers libphonenumber types as mobile (or "fixed line or mobile",
// which is every US/CA number) in the allowed countries. Server only: the full metadata is large, and the web bundle
// must stay small.
import { type CountryCode, type PhoneNumber, parsePhoneNumberFromString } from "libphonenumber-js/max";
import { CUSTOMER_PHONE, stripPhone } from "./customers.ts";
import { toE164 } from "./phone.ts";
import { INVALID_PHONE } from "./texts.ts";

export const NOT_A_MOBILE =
  "Please enter a mobile number: premium-rate, toll-free, shared-cost and landline numbers cannot subscribe.";
export const SHORT_CODE = "Please enter a full mobile number, not a short code.";
export const countryNotAllowed = (allowed: string[]) =>
  `Only mobile numbers from ${allowed.join(", ")} can subscribe here.`;

/**
 * THE number rule, on every path that stores a number or texts it (the public page, an owner's add and edit, CSV
 * imports, the owner's own phone, and the dispatcher just before a send): why this E.164 number may not be texted
 * here; null when it may. `allowed` null = any country. Numbers of no country (satellite networks such as Iridium
 * +881 and Inmarsat +870, international premium +979) are refused whatever the list says: they bill like premium.
 */
export function textableNumberProblem(phone: string, allowed: string[] | null): string | null {
  const parsed = parsePhoneNumberFromString(phone);
  return parsed?.isValid() ? validNumberProblem(parsed, allowed) : NOT_A_MOBILE;
}

function validNumberProblem(parsed: PhoneNumber, allowed: string[] | null): string | null {
  if (!parsed.country) return NOT_A_MOBILE;
  const type = parsed.getType();
  if (type !== "MOBILE" && type !== "FIXED_LINE_OR_MOBILE") return NOT_A_MOBILE;
  if (allowed && !allowed.includes(parsed.country)) return countryNotAllowed(allowed);
  return null;
}

/** A typed number that passed the rule: its E.164 form and its country. */
export interface TextableNumber {
  phone: string;
  country: CountryCode;
}

/**
 * The rule applied to a number as typed (read in `defaultCountry` when it has no country code), in ONE parse with
 * the full metadata: the number, or why not. The answers are those of toE164 followed by textableNumberProblem:
 * toE164's short metadata is looser, so it is asked only for a number the full one refuses, to tell INVALID_PHONE
 * (toE164 refuses it too) from NOT_A_MOBILE. Checked equal on three million typed numbers (bench/README.md "Issue 26
 * item 1"; a sample in test/unit/typed-number-verdict.test.ts).
 */
export function typedNumberVerdict(raw: string, defaultCountry: string, allowed: string[] | null): TextableNumber | { problem: string } {
  const compact = stripPhone(raw.trim());
  const parsed = CUSTOMER_PHONE.test(compact) ? parsePhoneNumberFromString(compact, defaultCountry as CountryCode) : undefined;
  if (!parsed?.isValid()) return { problem: toE164(raw, defaultCountry) ? NOT_A_MOBILE : INVALID_PHONE };
  const problem = validNumberProblem(parsed, allowed);
  return problem ? { problem } : { phone: parsed.number, country: parsed.country! };
}

/** Why a number already stored is never texted (the Customers screen, a Skipped delivery): the rule's verdict in
 * words about the number rather than to the person typing it; null when it may be texted. */
export function storedNumberProblem(phone: string, allowed: string[] | null): string | null {
  const problem = textableNumberProblem(phone, allowed);
  if (problem === null) return null;
  return problem === NOT_A_MOBILE
    ? "not a mobile number (premium-rate, toll-free, shared-cost, satellite or landline)"
    : `not a mobile number from ${allowed!.join(", ")} (the countries this server texts)`;
}

/** The public subscribe page's name for the one rule. */
export const subscribeNumberProblem = textableNumberProblem;

/** A short code typed into the form (5 or 6 digits, nothing else). */
export function looksLikeShortCode(raw: string): boolean {
  return /^\d{3,6}$/.test(raw.replace(/[\s().-]/g, ""));
}
