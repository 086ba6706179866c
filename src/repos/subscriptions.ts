import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { businesses, customers, subscriptions } from "../db/schema.ts";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscriptionRow = Omit<typeof subscriptions.$inferInsert, "id">;
export type SubscriptionFields = Partial<Omit<SubscriptionRow, "id">>;

/** A subscription with the owner of its business (for tenancy checks). */
export type SubscriptionWithOwner = SubscriptionRow & { ownerId: number; businessName: string };

/** One subscriber of a business, for the CLI listing. */
export interface SubscriberRow {
  customerId: number;
  phone: string;
  contactPreference: "WhatsApp" | "SMS";
  status: SubscriptionRow["status"];
  source: SubscriptionRow["source"];
  consentAt: Date;
  unsubscribedAt: Date | null;
}

export function subscriptionsRepo(db: Db) {
  return {
    find(customerId: number, businessId: number): SubscriptionRow | undefined {
      return db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.customerId, customerId), eq(subscriptions.businessId, businessId)))
        .get();
    },
    insert(row: NewSubscriptionRow): SubscriptionRow {
      return db.insert(subscriptions).values(row).returning().get();
    },
    update(id: number, fields: SubscriptionFields): void {
      db.update(subscriptions).set(fields).where(eq(subscriptions.id, id)).run();
    },
    /** Every subscription of a customer, with its business's owner, any status. */
    listByCustomer(customerId: number): SubscriptionWithOwner[] {
      return db
        .select({
          ...subscriptionColumns(),
          ownerId: businesses.ownerId,
          businessName: businesses.name,
        })
        .from(subscriptions)
        .innerJoin(businesses, eq(businesses.id, subscriptions.businessId))
        .where(eq(subscriptions.customerId, customerId))
        .orderBy(asc(subscriptions.id))
        .all();
    },
    /** The business's subscribers that were not removed by the owner, oldest first. */
    listSubscribers(businessId: number): SubscriberRow[] {
      return db
        .select({
          customerId: customers.id,
          phone: customers.phone,
          contactPreference: customers.contactPreference,
          status: subscriptions.status,
          source: subscriptions.source,
          consentAt: subscriptions.consentAt,
          unsubscribedAt: subscriptions.unsubscribedAt,
        })
        .from(subscriptions)
        .innerJoin(customers, eq(customers.id, subscriptions.customerId))
        .where(and(eq(subscriptions.businessId, businessId), ne(subscriptions.status, "removed")))
        .orderBy(asc(subscriptions.consentAt), asc(subscriptions.id))
        .all();
    },
    countByCustomer(customerId: number): number {
      return (
        db
          .select({ n: sql<number>`count(*)` })
          .from(subscriptions)
          .where(eq(subscriptions.customerId, customerId))
          .get()?.n ?? 0
      );
    },
  };
}

function subscriptionColumns() {
  const { id, customerId, businessId, status, source, consentAt, consentText, ip, userAgent, unsubscribedAt, createdAt } = subscriptions;
  return { id, customerId, businessId, status, source, consentAt, consentText, ip, userAgent, unsubscribedAt, createdAt };
}
