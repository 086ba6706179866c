// What the confirm step before a broadcast says (issue 11, item 6): the answer of POST /api/broadcast/Estimate and
// the question built from it, shared by the broadcast screen and the CLI. Pure: no I/O.
import type { LinkTracking } from "./link-tracking.ts";
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
  /** Whether the text's links go as short links (counted so above), and why not (issue 25). */
  linkTracking?: LinkTracking;
}

/**
 * What one MMS costs in SMS segments' worth. Twilio bills an MMS per message, whatever its text's length (up to
 * 1600 characters, never split into segments), at a higher price: US list prices are $0.0220 per MMS against $0.0083
 * per SMS segment, about 2.65 segments. We round up to 3 so that "about $X" errs on the high side.
 */
export const MMS_PRICE_IN_SEGMENTS = 3;

/** One channel's share of the estimate: how many billed units, at what price each, and their cost (USD). */
export interface CostLine {
  channel: "SMS" | "MMS" | "WhatsApp";
  count: number;
  /** What is counted: "SMS segment", "MMS", "WhatsApp message" (singular). */
  unit: string;
  unitPrice: number;
  cost: number;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * How the estimate is made, per channel: SMS by segment at the price setting; an MMS per message, at
 * MMS_PRICE_IN_SEGMENTS times it (never per segment); WhatsApp per message at the price setting (Twilio's own
 * per-message fee is below it, Meta's template fee depends on the country: the one price setting is the nearest
 * figure we have). Channels nobody is on are left out. The service's total is the sum of these lines.
 */
export function costLines(e: Pick<BroadcastEstimate, "sms" | "whatsapp" | "mms" | "segmentsPerMessage" | "pricePerSegment">): CostLine[] {
  const price = e.pricePerSegment;
  const line = (channel: CostLine["channel"], count: number, unit: string, unitPrice: number): CostLine => ({ channel, count, unit, unitPrice, cost: round4(count * unitPrice) });
  const lines: CostLine[] = [];
  if (e.sms > 0) lines.push(e.mms ? line("MMS", e.sms, "MMS", round4(price * MMS_PRICE_IN_SEGMENTS)) : line("SMS", e.sms * e.segmentsPerMessage, "SMS segment", price));
  if (e.whatsapp > 0) lines.push(line("WhatsApp", e.whatsapp, "WhatsApp message", price));
  return lines;
}

/** The sum of the lines, to 4 decimals: what `estimatedCost` is when something is billed. */
export const costOfLines = (lines: CostLine[]): number => round4(lines.reduce((sum, l) => sum + l.cost, 0));

const dollars = (n: number) => `$${n > 0 && n < 0.01 ? n.toFixed(4) : n.toFixed(2)}`;

/** "1,473 MMS × $0.0249 = $36.68", "93 SMS segments × $0.0083 = $0.77": count × price = cost. */
export function costLineText(l: CostLine): string {
  const unit = l.count === 1 || l.unit === "MMS" ? l.unit : `${l.unit}s`;
  return `${l.count.toLocaleString("en-US")} ${unit} × $${l.unitPrice} = ${dollars(l.cost)}`;
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
