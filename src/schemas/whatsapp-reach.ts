// Meta delivers no WhatsApp marketing template to US numbers (since 1 April 2025; Twilio 63049 "use another channel
// such as SMS"), so a promotion to a US subscriber on WhatsApp never arrives. Where a person picks a channel, WhatsApp
// is offered only for numbers it can reach with promotions; a subscriber already on WhatsApp with such a number is
// shown to the owner with the reason and skipped, never texted by SMS instead (they did not choose SMS).
// The rule for a stored number is whatsapp-marketing.ts (server only: telling a US number from a Canadian one takes
// libphonenumber's metadata). This file holds its words and the subscribe page's reading of a number as it is typed,
// which needs no metadata: the page's script must stay light.

/** Under the channel choice on the subscribe page, when the number typed is one WhatsApp promotions cannot reach. */
export const WHATSAPP_SMS_INSTEAD = "WhatsApp can't deliver promotions to US numbers, so we'll text you.";
/** The subscribe API's 400 on `contactPreference` for WhatsApp with such a number. */
export const WHATSAPP_CHOOSE_SMS = "WhatsApp can't deliver promotions to US numbers. Please choose SMS.";
/** Beside a WhatsApp subscriber with such a number (the owner's customer list). */
export const WHATSAPP_NO_PROMOTIONS = "WhatsApp can't deliver promotions to US numbers: promotions skip this customer (never sent by SMS instead). Ask them to subscribe by SMS.";

/** What the page needs to read a typed number: the calling code of the server's default country (a number typed
 * without +), and the area codes of the +1 numbers outside the US (Canada, the Caribbean), which WhatsApp reaches. */
export interface TypedReach {
  callingCode: string;
  reachableAreaCodes: readonly string[];
}

/** Whether WhatsApp promotions reach the number as typed so far; null while that cannot be told yet (nothing typed,
 * or a +1 number before its three-digit area code). Mirrors whatsappMarketingReachable for the E.164 it becomes. */
export function typedWhatsAppReach(raw: string, reach: TypedReach): boolean | null {
  const typed = raw.replace(/[\s().-]/g, "");
  let national: string;
  if (typed.startsWith("+")) {
    if (typed.length < 2) return null;
    if (typed[1] !== "1") return true;
    national = typed.slice(2);
  } else {
    if (!typed) return null;
    if (reach.callingCode !== "1") return true;
    // "1 415 555 0134" typed in a +1 country: the leading 1 is the country's own prefix.
    national = typed.startsWith("1") ? typed.slice(1) : typed;
  }
  const area = national.slice(0, 3);
  if (!/^\d{3}$/.test(area)) return null;
  return reach.reachableAreaCodes.includes(area);
}
