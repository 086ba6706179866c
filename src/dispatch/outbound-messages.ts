// The message a delivery sends: its broadcast's text and image (read once per broadcast), to the delivery's phone on
// its channel, with a status callback that names the delivery (so a callback finds it even when the answer was lost).
import { type Channel, type OutboundMessage, statusCallbackPath } from "../messaging/messenger.ts";
import type { BroadcastMessage, DeliveryChannel, DispatchStore } from "./store.ts";

const CACHED_BROADCASTS = 1000;

export const channelOf = (c: DeliveryChannel): Channel => (c === "WhatsApp" ? "whatsapp" : "sms");

type Addressed = { id: number; broadcastId: number; toPhone: string; channel: DeliveryChannel };

export class OutboundMessages {
  private readonly cache = new Map<number, BroadcastMessage | null>();

  constructor(private readonly store: Pick<DispatchStore, "broadcastMessage">) {}

  /** What to send for this delivery; null when its broadcast no longer exists. */
  for(delivery: Addressed): OutboundMessage | null {
    const b = this.broadcast(delivery.broadcastId);
    if (!b) return null;
    return {
      to: delivery.toPhone,
      channel: channelOf(delivery.channel),
      body: b.messageText,
      ...(b.imagePath ? { mediaUrl: b.imagePath } : {}),
      statusCallback: statusCallbackPath(delivery.id),
    };
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
