import { and, asc, eq, getTableColumns, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { consentEvents, customers, subscriptions } from "../db/schema.ts";
import { placeholders } from "./placeholders.ts";

export type ConsentEventRow = typeof consentEvents.$inferSelect;
export type NewConsentEventRow = Omit<typeof consentEvents.$inferInsert, "id">;
/** A consent event with the person's phone (the export). */
export type ConsentExportRow = ConsentEventRow & { phone: string };

/**
 * SQL condition: the customer (a column or parameter of the enclosing statement) is under an all-business opt-out,
 * i.e. their latest consent event with no business (STOP to the shared number, Twilio 21610, or START) is an
 * 'unsubscribed'. The one definition of the rule, for optedOut() below and for statements of other repos that must
 * leave such a person out (the broadcast enqueue). Served by the partial index consent_events_all_business_idx.
 */
export function underOptOutSql(customerId: string): string {
  return (
    "(SELECT e.kind FROM consent_events e WHERE e.customer_id = " +
    customerId +
    " AND e.business_id IS NULL ORDER BY e.id DESC LIMIT 1) IS 'unsubscribed'"
  );
}

// Append-only: rows are added, re-attached when a phone number is corrected, and erased only by `forget`.
export function consentEventsRepo(db: Db) {
  const underOptOut = sql<number>`${sql.raw(underOptOutSql('"customers"."id"'))}`;
  // Every scan of a poster writes one event: prepared once, because drizzle otherwise builds and prepares the SQL
  // again on every call (bench/README.md, subscribe).
  const insertEvent = db
    .insert(consentEvents)
    .values(placeholders("customerId", "businessId", "kind", "source", "consentText", "ip", "userAgent", "at"))
    .prepare();
  return {
    insert(row: NewConsentEventRow): void {
      const { businessId = null, consentText = null, ip = null, userAgent = null } = row;
      insertEvent.run({ ...row, businessId, consentText, ip, userAgent });
    },
    /**
     * Whether the person opted out of everything sent from our number (a STOP, or Twilio's 21610) and has not
     * texted START since.
     */
    optedOut(customerId: number): boolean {
      return db.select({ out: underOptOut }).from(customers).where(eq(customers.id, customerId)).get()?.out === 1;
    },
    listByCustomer(customerId: number): ConsentEventRow[] {
      return db.select().from(consentEvents).where(eq(consentEvents.customerId, customerId)).orderBy(asc(consentEvents.id)).all();
    },
    /** Moves one business's history from one customer to another (a corrected phone number). */
    moveBusinessHistory(fromCustomerId: number, toCustomerId: number, businessId: number): void {
      db.update(consentEvents)
        .set({ customerId: toCustomerId })
        .where(and(eq(consentEvents.customerId, fromCustomerId), eq(consentEvents.businessId, businessId)))
        .run();
    },
    /** One page of the business's own events, by id (consent_events_business_idx), after `afterId`. */
    pageOfBusiness(businessId: number, afterId: number, limit: number): ConsentExportRow[] {
      return db
        .select({ ...getTableColumns(consentEvents), phone: customers.phone })
        .from(consentEvents)
        .innerJoin(customers, eq(customers.id, consentEvents.customerId))
        .where(and(eq(consentEvents.businessId, businessId), gt(consentEvents.id, afterId)))
        .orderBy(asc(consentEvents.id))
        .limit(limit)
        .all();
    },
    /** The all-business events (STOP, START, 21610: few) of the business's subscribers, by id. */
    allBusinessOfSubscribers(businessId: number): ConsentExportRow[] {
      const hasSubscription = sql`EXISTS (SELECT 1 FROM ${subscriptions} s WHERE s.customer_id = ${consentEvents.customerId} AND s.business_id = ${businessId})`;
      return db
        .select({ ...getTableColumns(consentEvents), phone: customers.phone })
        .from(consentEvents)
        .innerJoin(customers, eq(customers.id, consentEvents.customerId))
        .where(and(isNull(consentEvents.businessId), hasSubscription))
        .orderBy(asc(consentEvents.id))
        .all();
    },
    countByCustomer(customerId: number): number {
      return db.select({ n: sql<number>`count(*)` }).from(consentEvents).where(eq(consentEvents.customerId, customerId)).get()?.n ?? 0;
    },
  };
}
