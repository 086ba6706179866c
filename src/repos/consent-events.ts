import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { consentEvents } from "../db/schema.ts";

export type ConsentEventRow = typeof consentEvents.$inferSelect;
export type NewConsentEventRow = Omit<typeof consentEvents.$inferInsert, "id">;

// Append-only: rows are added, re-attached when a phone number is corrected, and erased only by `forget`.
export function consentEventsRepo(db: Db) {
  // Compiled once: the subscribe path writes one event per request.
  let insert: ReturnType<typeof prepareInsert> | undefined;
  return {
    insert(row: NewConsentEventRow): void {
      (insert ??= prepareInsert(db)).run({
        customerId: row.customerId,
        businessId: row.businessId ?? null,
        kind: row.kind,
        source: row.source,
        consentText: row.consentText ?? null,
        ip: row.ip ?? null,
        userAgent: row.userAgent ?? null,
        at: row.at,
      });
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
    countByCustomer(customerId: number): number {
      return (
        db
          .select({ n: sql<number>`count(*)` })
          .from(consentEvents)
          .where(eq(consentEvents.customerId, customerId))
          .get()?.n ?? 0
      );
    },
  };
}

function prepareInsert(db: Db) {
  const p = sql.placeholder;
  return db
    .insert(consentEvents)
    .values({
      customerId: p("customerId"),
      businessId: p("businessId"),
      kind: p("kind"),
      source: p("source"),
      consentText: p("consentText"),
      ip: p("ip"),
      userAgent: p("userAgent"),
      at: p("at"),
    })
    .prepare();
}
