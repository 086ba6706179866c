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
  // Meta's 472 (Twilio's error-code mapping): the number is in one of Meta's experiments that hold back marketing.
  63032: "Meta did not deliver this marketing message: the person's number is in a WhatsApp experiment that limits marketing messages. Reach them by SMS.",
  63049: "Meta did not deliver this marketing template; WhatsApp marketing templates do not reach US (+1) numbers. Use SMS for them.",
  // Twilio's page for 63062: the Marketing Messages API terms are not accepted for the business portfolio.
  63062: "WhatsApp marketing messages are not enabled for this sender: accept Meta's Marketing Messages API terms of service in Meta Business Manager, then send again.",
  [WHATSAPP_MARKETING_STOPPED_CODE]:
    "The customer turned off marketing messages on WhatsApp. No WhatsApp promotions go to them until they write to you on WhatsApp again.",
};

/** The readable reason for a WhatsApp error code; null for any other code. */
export function whatsappErrorReason(code: number | null | undefined): string | null {
  if (code === null || code === undefined) return null;
  return WHATSAPP_ERROR_REASONS[code] ?? null;
}

export const isMarketingStopped = (code: number | null | undefined) => code === WHATSAPP_MARKETING_STOPPED_CODE;
