// When each customer last wrote to us, per channel (customer_inbound), and the WhatsApp marketing stop (Meta 131050)
// on customers: what decides whether a WhatsApp message may go free-form (within 24 hours of the person's last
// message) and whether a WhatsApp promotion may go at all.
import { and, eq, gt, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { customerInbound, customers, deliveries } from "../db/schema.ts";

/** WhatsApp's customer-service window: free-form messages only within this time of the person's last message. */
export const WHATSAPP_WINDOW_MS = 24 * 60 * 60 * 1000;

export type InboundChannel = "SMS" | "WhatsApp";

export function customerInboundRepo(db: Db) {
  return {
    /** The person wrote to us now on this channel. An older time (a replayed or late webhook) never moves it back. */
    record(customerId: number, channel: InboundChannel, at: number): void {
      db.insert(customerInbound)
        .values({ customerId, channel, lastInboundAt: new Date(at) })
        .onConflictDoUpdate({
          target: [customerInbound.customerId, customerInbound.channel],
          set: { lastInboundAt: sql`MAX(${customerInbound.lastInboundAt}, excluded.last_inbound_at)` },
        })
        .run();
    },
    /** When the person last wrote on this channel; null when never. */
    lastInboundAt(customerId: number, channel: InboundChannel): number | null {
      const row = db
        .select({ at: customerInbound.lastInboundAt })
        .from(customerInbound)
        .where(and(eq(customerInbound.customerId, customerId), eq(customerInbound.channel, channel)))
        .get();
      return row ? new Date(row.at).getTime() : null;
    },
    /** Meta 131050 on a delivery: its customer turned WhatsApp marketing off. Only a WhatsApp delivery says so. */
    markMarketingStoppedByDelivery(deliveryId: number, at: number): void {
      const customer = db.select({ id: deliveries.customerId }).from(deliveries).where(and(eq(deliveries.id, deliveryId), eq(deliveries.channel, "WhatsApp")));
      db.update(customers).set({ whatsappMarketingStoppedAt: new Date(at) }).where(sql`${customers.id} IN ${customer}`).run();
    },
    /** The person wrote to us on WhatsApp: they want to hear from businesses there again. */
    clearMarketingStopped(customerId: number): void {
      db.update(customers)
        .set({ whatsappMarketingStoppedAt: null })
        .where(and(eq(customers.id, customerId), isNotNull(customers.whatsappMarketingStoppedAt)))
        .run();
    },
    marketingStoppedAt(customerId: number): number | null {
      const row = db.select({ at: customers.whatsappMarketingStoppedAt }).from(customers).where(eq(customers.id, customerId)).get();
      return row?.at ? new Date(row.at).getTime() : null;
    },
  };
}

export type CustomerInboundRepo = ReturnType<typeof customerInboundRepo>;
