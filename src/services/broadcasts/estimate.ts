// The confirm step before a broadcast (issue 11, item 6): how many people, how many messages and segments, and what
// it will roughly cost. Shared by the broadcast screen (POST /api/broadcast/Estimate) and `nearcast broadcast send`.
import { NotFoundError } from "../../errors.ts";
import type { Repos } from "../../repos/index.ts";
import { type EstimateBody, estimateSchema } from "../../schemas/broadcast-input.ts";
import { type BroadcastEstimate, costLines, costOfLines } from "../../schemas/broadcast-estimate.ts";
import { linkTracking } from "../../schemas/link-tracking.ts";
import { countSegments } from "../../schemas/sms-segments.ts";
import { textAsSent } from "../../schemas/tracked-text.ts";
import { BUSINESS_NOT_FOUND } from "../../schemas/texts.ts";
import { canManage, type Principal } from "../principal.ts";
import type { CurrentSettings } from "../settings.ts";
import { validateForm } from "../validate.ts";

/** Who on WhatsApp a broadcast of this business would skip (the broadcasts service's audience, whatsapp-skips.ts). */
type WhatsAppSkips = (actor: Principal, businessId: number, withTemplate: boolean) => Promise<number>;

export function createBroadcastEstimateService({
  repos,
  settings,
  whatsappSkips,
}: {
  repos: Repos;
  settings: { current(): CurrentSettings; savedPublicUrl(): string | null };
  whatsappSkips: WhatsAppSkips;
}) {
  return {
    /** 400 naming BusinessId or MessageText; 404 for a business the actor does not manage. Writes nothing. */
    async estimate(actor: Principal, body: EstimateBody): Promise<BroadcastEstimate> {
      const input = validateForm(estimateSchema, body);
      const { businessId, messageText, hasImage: mms, withTemplate } = input;
      // Counted as each person receives it (issue 25): short links for long ones, a unique code for {code}.
      const { base, ...tracking } = linkTracking(input.trackLinks, messageText, settings.savedPublicUrl());
      const text = textAsSent(messageText, { shortLinkBase: base, uniqueCoupons: input.uniqueCoupons });
      const business = repos.businesses.findById(businessId);
      if (!business || !canManage(actor, business)) throw new NotFoundError(BUSINESS_NOT_FOUND);

      const all = repos.broadcasts.subscriberCounts(businessId);
      // Skipped WhatsApp recipients get no message and cost nothing: the question counts only who will be sent to.
      const skipped = all.whatsapp > 0 ? await whatsappSkips(actor, businessId, withTemplate) : 0;
      const counts = { sms: all.sms, whatsapp: all.whatsapp - skipped, total: all.total - skipped };
      const seg = countSegments(text);
      const segmentsPerMessage = mms ? 1 : seg.segments;
      const smsSegments = counts.sms * segmentsPerMessage;
      const totalSegments = smsSegments + counts.whatsapp;
      const current = settings.current();
      const price = current.pricePerSegment;
      // The total is the sum of the per-channel lines the screen and the CLI show (costLines says how each is priced).
      const cost = costOfLines(costLines({ sms: counts.sms, whatsapp: counts.whatsapp, mms, segmentsPerMessage, pricePerSegment: price }));
      return {
        recipients: counts.total,
        sms: counts.sms,
        whatsapp: counts.whatsapp,
        skipped,
        mms,
        encoding: seg.encoding,
        segmentsPerMessage,
        messages: counts.total,
        totalSegments,
        estimatedCost: current.twilio ? cost : null,
        currency: "USD",
        pricePerSegment: price,
        linkTracking: tracking,
      };
    },
  };
}

export type BroadcastEstimateService = ReturnType<typeof createBroadcastEstimateService>;

