// What a sent broadcast cost, counted as the estimate counts it (src/schemas/broadcast-estimate.ts): the text as each
// person received it (short links on the public URL when tracked, unique codes at {code}; tracked-text.ts), its SMS
// segments at the price per segment (an MMS at MMS_PRICE_IN_SEGMENTS), WhatsApp per message. Shared by the results
// page and the dashboard.
import { type CostLine, costLines, costOfLines } from "../../schemas/broadcast-estimate.ts";
import { countSegments } from "../../schemas/sms-segments.ts";
import { textAsSent } from "../../schemas/tracked-text.ts";

export interface SentText {
  messageText: string;
  imagePath: string | null;
  trackLinks: boolean;
  uniqueCoupons: boolean;
}

export interface SentCost {
  segmentsPerMessage: number;
  /** SMS segments (one per MMS) plus one per WhatsApp message, as the estimate's totalSegments. */
  totalSegments: number;
  lines: CostLine[];
  /** USD to 4 decimals; null in the sandbox (nothing billed). */
  cost: number | null;
}

export interface Pricing {
  pricePerSegment: number;
  /** The public URL short links are on (null: URLs went as written). */
  publicUrl: string | null;
  /** False in the sandbox. */
  billed: boolean;
}

/** The cost of `sms` SMS/MMS and `whatsapp` WhatsApp messages of the broadcast's text. */
export function sentCost(b: SentText, sent: { sms: number; whatsapp: number }, p: Pricing): SentCost {
  const mms = b.imagePath !== null;
  const text = textAsSent(b.messageText, { shortLinkBase: b.trackLinks ? p.publicUrl : null, uniqueCoupons: b.uniqueCoupons });
  const segmentsPerMessage = mms ? 1 : countSegments(text).segments;
  const lines = costLines({ sms: sent.sms, whatsapp: sent.whatsapp, mms, segmentsPerMessage, pricePerSegment: p.pricePerSegment });
  return { segmentsPerMessage, totalSegments: sent.sms * segmentsPerMessage + sent.whatsapp, lines, cost: p.billed ? costOfLines(lines) : null };
}
