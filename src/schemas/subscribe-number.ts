// Which numbers the public subscribe page takes (SMS pumping: a form that makes us text any number is a way to bill
// us for texts to premium-rate numbers). Only numbers libphonenumber types as mobile (or "fixed line or mobile",
// which is every US/CA number) in the allowed countries. Server only: the full metadata is large, and the web bundle
// must stay small.
import { parsePhoneNumberFromString } from "libphonenumber-js/max";

export const NOT_A_MOBILE =
  "Please enter a mobile number: premium-rate, toll-free, shared-cost and landline numbers cannot subscribe.";
export const SHORT_CODE = "Please enter a full mobile number, not a short code.";
export const countryNotAllowed = (allowed: string[]) =>
  `Only mobile numbers from ${allowed.join(", ")} can subscribe here.`;

/** Why this E.164 number may not subscribe from the public page; null when it may. `allowed` null = any country. */
export function subscribeNumberProblem(phone: string, allowed: string[] | null): string | null {
  const parsed = parsePhoneNumberFromString(phone);
  if (!parsed?.isValid()) return NOT_A_MOBILE;
  const type = parsed.getType();
  if (type !== "MOBILE" && type !== "FIXED_LINE_OR_MOBILE") return NOT_A_MOBILE;
  if (allowed && !allowed.includes(parsed.country ?? "")) return countryNotAllowed(allowed);
  return null;
}

/** A short code typed into the form (5 or 6 digits, nothing else). */
export function looksLikeShortCode(raw: string): boolean {
  return /^\d{3,6}$/.test(raw.replace(/[\s().-]/g, ""));
}
