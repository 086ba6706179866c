// Readable reasons for the WhatsApp errors Twilio and Meta report, stored as the delivery's error_message (the
// customer's messages show it). Twilio's own texts ("Channel could not find To address") do not tell an owner what
// to do; these do.

/** Meta's "this person stopped marketing messages from businesses" (their WhatsApp setting). No WhatsApp promotion
 * goes to them until they write to us on WhatsApp again (customers.whatsapp_marketing_stopped_at). */
export const WHATSAPP_MARKETING_STOPPED_CODE = 131050;

export const WHATSAPP_ERROR_REASONS: Readonly<Record<number, string>> = {
  63016:
    "WhatsApp refused a free-form message: it was more than 24 hours since the customer last wrote. Outside that window WhatsApp accepts only approved templates.",
  63018: "WhatsApp's rate limit for this sender was exceeded; send fewer messages per second or try again later.",
  63024: "This number cannot receive WhatsApp messages (not a WhatsApp user, or the number is not valid on WhatsApp).",
  63030: "WhatsApp refused a part of the message (a template variable or the media header does not fit the template).",
  63032: "WhatsApp did not deliver this message to this person (Meta holds some numbers out of business messages).",
  63049: "Meta did not deliver this marketing template; WhatsApp marketing templates do not reach US (+1) numbers. Use SMS for them.",
  63062: "WhatsApp refused the template: it is not approved (or was paused or disabled) for this sender.",
  [WHATSAPP_MARKETING_STOPPED_CODE]:
    "The customer turned off marketing messages on WhatsApp. No WhatsApp promotions go to them until they write to you on WhatsApp again.",
};

/** The readable reason for a WhatsApp error code; null for any other code. */
export function whatsappErrorReason(code: number | null | undefined): string | null {
  if (code === null || code === undefined) return null;
  return WHATSAPP_ERROR_REASONS[code] ?? null;
}

export const isMarketingStopped = (code: number | null | undefined) => code === WHATSAPP_MARKETING_STOPPED_CODE;
