// The message a delivery sends: its broadcast's text and image (or, on WhatsApp, its template) (read once per broadcast), to the delivery's phone on
// its channel, with a status callback that names the delivery (so a callback finds it even when the answer was lost).
import { type Channel, type OutboundMessage, statusCallbackPath } from "../messaging/messenger.ts";
import { COUPON_PLACEHOLDER, replaceUrls, shortLink } from "../schemas/tracked-text.ts";
import type { BroadcastMessage, DeliveryChannel, DispatchStore } from "./store.ts";

const CACHED_BROADCASTS = 1000;

export const channelOf = (c: DeliveryChannel): Channel => (c === "WhatsApp" ? "whatsapp" : "sms");

type Addressed = { id: number; broadcastId: number; toPhone: string; channel: DeliveryChannel; validForSeconds?: number };

export class OutboundMessages {
  private readonly cache = new Map<number, BroadcastMessage | null>();

  constructor(
    private readonly store: Pick<DispatchStore, "broadcastMessage" | "personalize">,
    /** The saved public URL of the moment (short links live there); null: none, the links go as written. */
    private readonly publicUrl: () => string | null = () => null,
    private readonly now: () => number = Date.now,
  ) {}

  /** What to send for this delivery; null when its broadcast no longer exists. */
  for(delivery: Addressed): OutboundMessage | null {
    const b = this.broadcast(delivery.broadcastId);
    if (!b) return null;
    const channel = channelOf(delivery.channel);
    // WhatsApp with a template: ContentSid + ContentVariables, the image travelling as the media header's variable.
    // Without one, WhatsApp goes free-form (only people inside the 24-hour window were left Queued). SMS: always text.
    const template = channel === "whatsapp" && b.contentSid ? { contentSid: b.contentSid, contentVariables: b.contentVariables ?? "{}" } : null;
    return {
      to: delivery.toPhone,
      channel,
      body: template ? b.messageText : this.personalText(delivery, b),
      ...(template ?? (b.imagePath ? { mediaUrl: b.imagePath } : {})),
      statusCallback: statusCallbackPath(delivery.id),
      ...(delivery.validForSeconds !== undefined ? { validityPeriod: delivery.validForSeconds } : {}),
    };
  }

  /**
   * The text as this person receives it (issue 25): each URL as their own short link on the public URL, `{code}` as
   * their own coupon. Templates are left as they are (their variables are Meta-approved, not ours to rewrite). The
   * codes are made by the store on the first send and the same on a resend, so a look-up finds the same body.
   */
  private personalText(delivery: Addressed, b: BroadcastMessage): string {
    const base = b.trackLinks ? this.publicUrl() : null;
    const coupon = !!b.uniqueCoupons;
    if (!base && !coupon) return b.messageText;
    const mine = this.store.personalize(delivery.id, delivery.broadcastId, { links: base !== null, coupon }, this.now());
    let text = base ? replaceUrls(b.messageText, (i, url) => (mine.links[i] ? shortLink(base, mine.links[i]) : url)) : b.messageText;
    if (mine.coupon) text = text.split(COUPON_PLACEHOLDER).join(mine.coupon);
    return text;
  }

  /** A completed broadcast is not asked for again. */
  forget(broadcastId: number): void {
    this.cache.delete(broadcastId);
  }

  private broadcast(id: number): BroadcastMessage | null {
    if (!this.cache.has(id)) {
      if (this.cache.size >= CACHED_BROADCASTS) this.cache.clear();
      this.cache.set(id, this.store.broadcastMessage(id) ?? null);
    }
    return this.cache.get(id) ?? null;
  }
}
