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

/** What the subscribe path needs to know about a business. */
export interface SubscribableBusiness {
  id: number;
  name: string;
  isActive: boolean;
  successMessage: string | null;
}

export function subscriptionsRepo(db: Db) {
  // The subscribe path runs these per request: compiled once (drizzle otherwise re-prepares the SQL every call).
  let prepared: ReturnType<typeof prepare> | undefined;
  const ps = () => (prepared ??= prepare(db));
  // bun:sqlite's transaction() builds a new wrapper (with its deferred/immediate/exclusive variants) on every call:
  // one wrapper, made once, runs any fn. Nested in an open transaction it uses a savepoint, as before.
  let atomically: (<T>(fn: () => T) => T) | undefined;
  return {
    /**
     * Runs fn atomically: a transaction, or a savepoint when one is already open (bun:sqlite nests them), so
     * one failing piece of a batch rolls back alone.
     */
    atomic<T>(fn: () => T): T {
      atomically ??= db.$client.transaction(<R>(f: () => R): R => f()) as <R>(f: () => R) => R;
      return atomically(fn);
    },
    business(id: number): SubscribableBusiness | undefined {
      const row = ps().business.get(id);
      return row ? { id: row.id, name: row.name, isActive: row.is_active === 1, successMessage: row.success_message } : undefined;
    },
    find(customerId: number, businessId: number): SubscriptionRow | undefined {
      return ps().find.get({ customerId, businessId });
    },
    /** Inserts the subscription unless the customer already has one to that business; true when inserted. */
    insertIfNew(row: NewSubscriptionRow & { createdAt: Date }): boolean {
      return (
        ps().insertIfNew.run(
          row.customerId,
          row.businessId,
          row.status ?? "active",
          row.source,
          row.consentAt.getTime(),
          row.consentText,
          row.ip ?? null,
          row.userAgent ?? null,
          row.createdAt.getTime(),
        ).changes > 0
      );
    },
    insert(row: NewSubscriptionRow & { createdAt: Date }): void {
      ps().insert.run(params(row));
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

function params(row: NewSubscriptionRow & { createdAt: Date }) {
  return {
    customerId: row.customerId,
    businessId: row.businessId,
    status: row.status ?? "active",
    source: row.source,
    consentAt: row.consentAt,
    consentText: row.consentText,
    ip: row.ip ?? null,
    userAgent: row.userAgent ?? null,
    createdAt: row.createdAt,
  };
}

function prepare(db: Db) {
  const p = sql.placeholder;
  const values = {
    customerId: p("customerId"),
    businessId: p("businessId"),
    status: p("status"),
    source: p("source"),
    consentAt: p("consentAt"),
    consentText: p("consentText"),
    ip: p("ip"),
    userAgent: p("userAgent"),
    createdAt: p("createdAt"),
  };
  return {
    // The two statements of every subscribe request in plain bun:sqlite (drizzle's prepared queries still map
    // placeholders and rows in JS on each call).
    business: db.$client.prepare<{ id: number; name: string; is_active: number; success_message: string | null }, [number]>(
      "SELECT id, name, is_active, success_message FROM businesses WHERE id = ?",
    ),
    insertIfNew: db.$client.prepare<never, [number, number, string, string, number, string, string | null, string | null, number]>(
      "INSERT INTO subscriptions (customer_id, business_id, status, source, consent_at, consent_text, ip, user_agent, created_at) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
    ),
    find: db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.customerId, p("customerId")), eq(subscriptions.businessId, p("businessId"))))
      .prepare(),
    insert: db.insert(subscriptions).values(values).prepare(),
  };
}
