// What the confirm step before a broadcast says (issue 11, item 6): the answer of POST /api/broadcast/Estimate and
// the question built from it, shared by the broadcast screen and the CLI. Pure: no I/O.
import type { SmsEncoding } from "./sms-segments.ts";

export interface BroadcastEstimate {
  /** Active subscribers now (a scheduled broadcast's recipients are decided when it starts). */
  recipients: number;
  sms: number;
  /** WhatsApp recipients who will be sent to (not counting `skipped`). */
  whatsapp: number;
  /** WhatsApp recipients the broadcast will skip (no template outside the 24-hour window, US numbers, marketing
   * turned off); not in `recipients`. */
  skipped: number;
  /** True when an image goes with it: each SMS becomes one MMS. */
  mms: boolean;
  encoding: SmsEncoding;
  /** SMS segments one SMS recipient costs: 1 for an MMS, which is not segmented. */
  segmentsPerMessage: number;
  /** One message per recipient. */
  messages: number;
  /**
   * What Twilio bills, counted in messages and segments: each SMS recipient's segments (one per MMS), plus one per
   * WhatsApp message (WhatsApp is billed per message, never segmented).
   */
  totalSegments: number;
  /** US dollars (to 4 decimals); null in the sandbox (nothing is billed). */
  estimatedCost: number | null;
  currency: "USD";
  pricePerSegment: number;
}

/** "Send to 48 customers: 48 messages (93 segments), about $0.77": the question the screen and the CLI ask. */
export function estimateQuestion(e: BroadcastEstimate, when?: string | null): string {
  const s = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
  const cost =
    e.estimatedCost === null
      ? "no cost in the sandbox"
      : e.estimatedCost > 0 && e.estimatedCost < 0.01
        ? "under $0.01"
        : `about $${e.estimatedCost.toFixed(2)}`;
  const at = when ? ` at ${when}` : "";
  const skipped = e.skipped > 0 ? ` (${s(e.skipped, "WhatsApp customer")} skipped)` : "";
  return `Send to ${s(e.recipients, "customer")}${at}${skipped}: ${s(e.messages, "message")} (${s(e.totalSegments, "segment")}), ${cost}`;
}
