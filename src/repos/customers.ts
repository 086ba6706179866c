import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { businesses, customers, subscriptions } from "../db/schema.ts";
import { placeholders } from "./placeholders.ts";

export type CustomerRow = typeof customers.$inferSelect;
export type NewCustomerRow = Omit<typeof customers.$inferInsert, "id">;
type SubscriptionRow = typeof subscriptions.$inferSelect;

/** One customer joined with one of their listed subscriptions (active or unsubscribed) and its business. */
export type CustomerSubscriptionRow = Pick<CustomerRow, "id" | "phone" | "createdAt"> &
  Pick<SubscriptionRow, "status" | "businessId" | "contactPreference"> & {
    subscriptionId: number;
    subscriptionCreatedAt: Date;
    businessName: string;
    ownerId: number;
  };

/** The subscriptions an owner's customer list shows: the person's own state (removed and pending ones are not). */
const LISTED = ["active", "unsubscribed"] as const;

export function customersRepo(db: Db) {
  // Every scan of a poster runs this: prepared once, because drizzle otherwise builds and prepares the SQL again on
  // every call (bench/README.md, subscribe). The no-op update makes RETURNING answer an existing row's id too.
  const upsert = db
    .insert(customers)
    .values(placeholders("phone", "createdAt"))
    .onConflictDoUpdate({ target: customers.phone, set: { phone: sql`excluded.phone` } })
    .returning({ id: customers.id })
    .prepare();
  const visible = () =>
    db
      .select({
        id: customers.id,
        phone: customers.phone,
        createdAt: customers.createdAt,
        contactPreference: subscriptions.contactPreference,
        subscriptionId: subscriptions.id,
        subscriptionCreatedAt: subscriptions.createdAt,
        status: subscriptions.status,
        businessId: businesses.id,
        businessName: businesses.name,
        ownerId: businesses.ownerId,
      })
      .from(customers)
      .innerJoin(subscriptions, eq(subscriptions.customerId, customers.id))
      .innerJoin(businesses, eq(businesses.id, subscriptions.businessId));
  const order = [desc(customers.createdAt), desc(customers.id), businesses.name] as const;

  return {
    findById(id: number): CustomerRow | undefined {
      return db.select().from(customers).where(eq(customers.id, id)).get();
    },
    findByPhone(phone: string): CustomerRow | undefined {
      return db.select().from(customers).where(eq(customers.phone, phone)).get();
    },
    /** createdAt comes from the app's clock, not the column default. */
    insert(row: NewCustomerRow & { createdAt: Date }): CustomerRow {
      return db.insert(customers).values(row).returning().get();
    },
    /** The id of the customer with this phone, created if new. */
    upsertId(phone: string, createdAt: Date): number {
      return upsert.get({ phone, createdAt })!.id;
    },
    update(id: number, fields: Partial<Pick<CustomerRow, "phone">>): CustomerRow | undefined {
      return db.update(customers).set(fields).where(eq(customers.id, id)).returning().get();
    },
    /** Erases the row; subscriptions and consent events go with it (ON DELETE CASCADE). Only `forget` calls this. */
    delete(id: number): boolean {
      return db.delete(customers).where(eq(customers.id, id)).returning({ id: customers.id }).all().length > 0;
    },
    /**
     * Customer x subscription rows that are listed (active or unsubscribed): for one owner's businesses (ownerId
     * given) or for every business (null, the admin). Newest customer first.
     */
    listVisible(ownerId: number | null): CustomerSubscriptionRow[] {
      const listed = inArray(subscriptions.status, LISTED);
      return visible()
        .where(ownerId === null ? listed : and(listed, eq(businesses.ownerId, ownerId)))
        .orderBy(...order)
        .all();
    },
    /** The same rows for these customers (a page of ListCustomers), with the statuses asked for. */
    visibleForCustomers(customerIds: number[], ownerId: number | null, statuses: readonly SubscriptionRow["status"][] = LISTED): CustomerSubscriptionRow[] {
      if (customerIds.length === 0) return [];
      const base = and(inArray(customers.id, customerIds), inArray(subscriptions.status, statuses));
      return visible()
        .where(ownerId === null ? base : and(base, eq(businesses.ownerId, ownerId)))
        .orderBy(businesses.name)
        .all();
    },
    /** The same rows for one customer. */
    visibleForCustomer(customerId: number, ownerId: number | null): CustomerSubscriptionRow[] {
      const base = and(eq(customers.id, customerId), inArray(subscriptions.status, LISTED));
      return visible()
        .where(ownerId === null ? base : and(base, eq(businesses.ownerId, ownerId)))
        .orderBy(businesses.name)
        .all();
    },
  };
}
