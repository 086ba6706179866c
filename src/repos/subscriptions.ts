import { and, asc, eq, getTableColumns, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { businesses, customers, subscriptions } from "../db/schema.ts";
import { placeholders } from "./placeholders.ts";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscriptionRow = Omit<typeof subscriptions.$inferInsert, "id">;
export type SubscriptionFields = Partial<Omit<SubscriptionRow, "id">>;
type BusinessRow = typeof businesses.$inferSelect;
type CustomerRow = typeof customers.$inferSelect;

/** A subscription with the owner of its business (for tenancy checks). */
export type SubscriptionWithOwner = SubscriptionRow & { ownerId: number; businessName: string };

/** One subscriber of a business, for the CLI listing. */
export type SubscriberRow = { customerId: number } & Pick<CustomerRow, "phone" | "contactPreference"> &
  Pick<SubscriptionRow, "status" | "source" | "consentAt" | "unsubscribedAt">;

/** What the subscribe path needs to know about a business. */
export type SubscribableBusiness = Pick<BusinessRow, "id" | "name" | "isActive" | "successMessage">;

export function subscriptionsRepo(db: Db) {
  // Every scan of a poster runs these two: prepared once, because drizzle otherwise builds and prepares the SQL again
  // on every call (bench/README.md, subscribe).
  const { name, isActive, successMessage } = businesses;
  const businessById = db
    .select({ id: businesses.id, name, isActive, successMessage })
    .from(businesses)
    .where(eq(businesses.id, sql.placeholder("id")))
    .prepare();
  const insertUnlessThere = db
    .insert(subscriptions)
    .values(placeholders("customerId", "businessId", "status", "source", "consentAt", "consentText", "ip", "userAgent", "createdAt"))
    .onConflictDoNothing()
    .returning({ id: subscriptions.id })
    .prepare();

  return {
    business(id: number): SubscribableBusiness | undefined {
      return businessById.get({ id });
    },
    find(customerId: number, businessId: number): SubscriptionRow | undefined {
      return db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.customerId, customerId), eq(subscriptions.businessId, businessId)))
        .get();
    },
    /** Inserts the subscription unless the customer already has one to that business; true when inserted. */
    insertIfNew(row: NewSubscriptionRow & { createdAt: Date }): boolean {
      const { status = "active", ip = null, userAgent = null } = row;
      return insertUnlessThere.all({ ...row, status, ip, userAgent }).length > 0;
    },
    update(id: number, fields: SubscriptionFields): void {
      db.update(subscriptions).set(fields).where(eq(subscriptions.id, id)).run();
    },
    /** Every subscription of a customer, with its business's owner, any status. */
    listByCustomer(customerId: number): SubscriptionWithOwner[] {
      return db
        .select({ ...getTableColumns(subscriptions), ownerId: businesses.ownerId, businessName: businesses.name })
        .from(subscriptions)
        .innerJoin(businesses, eq(businesses.id, subscriptions.businessId))
        .where(eq(subscriptions.customerId, customerId))
        .orderBy(asc(subscriptions.id))
        .all();
    },
    /** The business's subscribers that were not removed by the owner, oldest first. */
    listSubscribers(businessId: number): SubscriberRow[] {
      const { status, source, consentAt, unsubscribedAt } = subscriptions;
      return db
        .select({ customerId: customers.id, phone: customers.phone, contactPreference: customers.contactPreference, status, source, consentAt, unsubscribedAt })
        .from(subscriptions)
        .innerJoin(customers, eq(customers.id, subscriptions.customerId))
        .where(and(eq(subscriptions.businessId, businessId), ne(subscriptions.status, "removed")))
        .orderBy(asc(subscriptions.consentAt), asc(subscriptions.id))
        .all();
    },
  };
}
