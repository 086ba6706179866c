// THE rule of who WhatsApp promotions reach (whatsapp-reach.ts says why), for a stored E.164 number: the subscribe
// API, the page, the owner's customer list, the broadcast audience and the skip at publish all ask it.
import { type CountryCode, getCountryCallingCode, parsePhoneNumberFromString } from "libphonenumber-js";
import type { TypedReach } from "./whatsapp-reach.ts";

/**
 * False for a US number, and for a +1 number libphonenumber cannot place (a fictional 555 number: more likely US than
 * not); true for every other number. Meta's pause covers US numbers only: Canada and the other +1 countries get
 * WhatsApp promotions. `country`: the number's, when the caller has just parsed it (the subscribe).
 */
export function whatsappMarketingReachable(e164: string, country?: CountryCode): boolean {
  if (!e164.startsWith("+1")) return true;
  const placed = country ?? parsePhoneNumberFromString(e164)?.country;
  return placed !== undefined && placed !== "US";
}

let areaCodes: string[] | null = null;

/** The +1 area codes outside the US, by the same rule (a number of each area code asked once, then kept). */
function reachableAreaCodes(): string[] {
  if (!areaCodes) {
    areaCodes = [];
    for (let area = 200; area <= 999; area++) if (whatsappMarketingReachable(`+1${area}2345678`)) areaCodes.push(String(area));
  }
  return areaCodes;
}

/** What the subscribe page's script needs to apply the rule to a number as it is typed (whatsapp-reach.ts). */
export function typedReachOf(defaultCountry: string): TypedReach {
  let callingCode = "";
  try {
    callingCode = getCountryCallingCode(defaultCountry as CountryCode);
  } catch {
    callingCode = "";
  }
  return { callingCode, reachableAreaCodes: reachableAreaCodes() };
}
