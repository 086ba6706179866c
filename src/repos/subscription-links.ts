import { and, desc, eq, lte, notInArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { subscriptionLinks } from "../db/schema.ts";

export type SubscriptionLinkRow = typeof subscriptionLinks.$inferSelect;

/** Links kept per person: a new HELP makes a new one, and the oldest beyond these go (the table stays bounded). */
export const LINKS_KEPT_PER_CUSTOMER = 3;

export function subscriptionLinksRepo(db: Db) {
  return {
    /** Stores a new link's hash; forgets every expired link and this person's oldest beyond LINKS_KEPT_PER_CUSTOMER. */
    insert(customerId: number, tokenHash: string, createdAt: Date, expiresAt: Date): void {
      db.delete(subscriptionLinks).where(lte(subscriptionLinks.expiresAt, createdAt)).run();
      db.insert(subscriptionLinks).values({ customerId, tokenHash, createdAt, expiresAt }).run();
      const kept = db
        .select({ id: subscriptionLinks.id })
        .from(subscriptionLinks)
        .where(eq(subscriptionLinks.customerId, customerId))
        .orderBy(desc(subscriptionLinks.id))
        .limit(LINKS_KEPT_PER_CUSTOMER)
        .all()
        .map((r) => r.id);
      db.delete(subscriptionLinks).where(and(eq(subscriptionLinks.customerId, customerId), notInArray(subscriptionLinks.id, kept))).run();
    },
    /** The link with this hash, expired or not (an expired one gets its own page), or undefined. */
    findByHash(tokenHash: string): SubscriptionLinkRow | undefined {
      return db.select().from(subscriptionLinks).where(eq(subscriptionLinks.tokenHash, tokenHash)).get();
    },
    /** Forgets links that have expired; how many. */
    deleteExpired(now: Date): number {
      return db.delete(subscriptionLinks).where(lte(subscriptionLinks.expiresAt, now)).returning({ id: subscriptionLinks.id }).all().length;
    },
  };
}
