import { and, asc, count, desc, eq, getTableColumns, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { businesses, customers, subscriptions, users } from "../db/schema.ts";
import { placeholders } from "./placeholders.ts";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscriptionRow = Omit<typeof subscriptions.$inferInsert, "id">;
export type SubscriptionFields = Partial<Omit<SubscriptionRow, "id">>;
type BusinessRow = typeof businesses.$inferSelect;
type CustomerRow = typeof customers.$inferSelect;

/** A subscription with the owner of its business (for tenancy checks). */
export type SubscriptionWithOwner = SubscriptionRow & { ownerId: number; businessName: string };

/** One subscriber of a business, for the CLI listing. */
export type SubscriberRow = { customerId: number } & Pick<CustomerRow, "phone"> &
  Pick<SubscriptionRow, "contactPreference" | "status" | "source" | "consentAt" | "unsubscribedAt">;

/** A pending request (a person the owner removed asked to subscribe again), as its owner sees it. */
export type SubscriptionRequestRow = Pick<SubscriptionRow, "customerId" | "businessId" | "contactPreference"> &
  Pick<CustomerRow, "phone"> & { businessName: string; requestedAt: Date };

/** What the subscribe path needs to know about a business, with what its confirmation text needs (its owner, and
 * whether the admin approved them). */
export type SubscribableBusiness = Pick<BusinessRow, "id" | "name" | "isActive" | "successMessage" | "doubleOptIn" | "messagesPerWeek" | "ownerId"> & {
  ownerStatus: (typeof users.$inferSelect)["status"];
};

export function subscriptionsRepo(db: Db) {
  // Every scan of a poster runs these: prepared once, because drizzle otherwise builds and prepares the SQL again
  // on every call (bench/README.md, subscribe). Two reads by key rather than a join: see the rule "a join or a sort
  // beside `column = ?`" in src/repos/README.md.
  const { name, isActive, successMessage, doubleOptIn, messagesPerWeek, ownerId } = businesses;
  const businessById = db
    .select({ id: businesses.id, name, isActive, successMessage, doubleOptIn, messagesPerWeek, ownerId })
    .from(businesses)
    .where(eq(businesses.id, sql.placeholder("id")))
    .prepare();
  const userStatus = db.select({ status: users.status }).from(users).where(eq(users.id, sql.placeholder("id"))).prepare();
  const insertUnlessThere = db
    .insert(subscriptions)
    .values(placeholders("customerId", "businessId", "status", "contactPreference", "source", "consentAt", "consentText", "ip", "userAgent", "createdAt"))
    .onConflictDoNothing()
    .returning({ id: subscriptions.id })
    .prepare();

  return {
    /**
     * Active subscribers of each of an owner's businesses, in one grouped read of subscriptions_business_status_idx
     * (the My Business cards). A business without any is absent.
     */
    activeCountsOfOwner(ownerId: number): { businessId: number; subscribers: number }[] {
      return db
        .select({ businessId: subscriptions.businessId, subscribers: count() })
        .from(subscriptions)
        .where(and(inArray(subscriptions.businessId, db.select({ id: businesses.id }).from(businesses).where(eq(businesses.ownerId, ownerId))), eq(subscriptions.status, "active")))
        .groupBy(subscriptions.businessId)
        .all();
    },
    business(id: number): SubscribableBusiness | undefined {
      const business = businessById.get({ id });
      return business && { ...business, ownerStatus: userStatus.get({ id: business.ownerId })!.status };
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
      const { status = "active", contactPreference = "SMS", ip = null, userAgent = null } = row;
      return insertUnlessThere.all({ ...row, status, contactPreference, ip, userAgent }).length > 0;
    },
    update(id: number, fields: SubscriptionFields): void {
      db.update(subscriptions).set(fields).where(eq(subscriptions.id, id)).run();
    },
    /** Sets the channel of the customer's subscriptions to these businesses (one owner's), whatever their status. */
    setContactPreference(customerId: number, businessIds: number[], contactPreference: SubscriptionRow["contactPreference"]): void {
      if (businessIds.length === 0) return;
      db.update(subscriptions)
        .set({ contactPreference })
        .where(and(eq(subscriptions.customerId, customerId), inArray(subscriptions.businessId, businessIds)))
        .run();
    },
    /**
     * Pending requests to the businesses of one owner (null: every business, the admin), newest first, with when
     * the person asked (the consent they gave is stored on the subscription: consentAt).
     */
    listPending(ownerId: number | null): SubscriptionRequestRow[] {
      const pending = eq(subscriptions.status, "pending");
      return db
        .select({
          customerId: subscriptions.customerId,
          businessId: subscriptions.businessId,
          contactPreference: subscriptions.contactPreference,
          phone: customers.phone,
          businessName: businesses.name,
          requestedAt: subscriptions.consentAt,
        })
        .from(subscriptions)
        .innerJoin(customers, eq(customers.id, subscriptions.customerId))
        .innerJoin(businesses, eq(businesses.id, subscriptions.businessId))
        .where(ownerId === null ? pending : and(pending, eq(businesses.ownerId, ownerId)))
        .orderBy(desc(subscriptions.consentAt), desc(subscriptions.id))
        .all();
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
        .select({ customerId: customers.id, phone: customers.phone, contactPreference: subscriptions.contactPreference, status, source, consentAt, unsubscribedAt })
        .from(subscriptions)
        .innerJoin(customers, eq(customers.id, subscriptions.customerId))
        .where(and(eq(subscriptions.businessId, businessId), ne(subscriptions.status, "removed")))
        .orderBy(asc(subscriptions.consentAt), asc(subscriptions.id))
        .all();
    },
  };
}
