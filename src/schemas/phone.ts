import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js";
import { CUSTOMER_PHONE, stripPhone } from "./customers.ts";

/**
 * A customer's phone number in E.164 ("+14155550134"), or null when it is not a valid number. A number typed
 * without a country code is read in `defaultCountry` (NEARCAST_DEFAULT_COUNTRY), so "(415) 555-0134",
 * "415.555.0134" and "+1 415 555 0134" are the same person. The spec's shape check (optional plus, first digit
 * 1-9, up to 16 digits) runs first, so the server never accepts what the form would refuse.
 */
export function toE164(raw: string, defaultCountry: string): string | null {
  const compact = stripPhone(raw.trim());
  if (!CUSTOMER_PHONE.test(compact)) return null;
  try {
    const parsed = parsePhoneNumberFromString(compact, defaultCountry as CountryCode);
    return parsed?.isValid() ? parsed.number : null;
  } catch {
    return null;
  }
}
