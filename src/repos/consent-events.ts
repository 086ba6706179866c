import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { consentEvents } from "../db/schema.ts";

export type ConsentEventRow = typeof consentEvents.$inferSelect;
export type NewConsentEventRow = Omit<typeof consentEvents.$inferInsert, "id">;

// Append-only: rows are added, re-attached when a phone number is corrected, and erased only by `forget`.
export function consentEventsRepo(db: Db) {
  return {
    insert(row: NewConsentEventRow): void {
      db.insert(consentEvents).values(row).run();
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
