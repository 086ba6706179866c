import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { consentEvents } from "../db/schema.ts";

export type ConsentEventRow = typeof consentEvents.$inferSelect;
export type NewConsentEventRow = Omit<typeof consentEvents.$inferInsert, "id">;

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
  // Compiled once, plain bun:sqlite: the subscribe path writes one event per request.
  let insert: ReturnType<typeof prepareInsert> | undefined;
  let optedOut: ReturnType<typeof prepareOptedOut> | undefined;
  return {
    insert(row: NewConsentEventRow): void {
      (insert ??= prepareInsert(db)).run(
        row.customerId,
        row.businessId ?? null,
        row.kind,
        row.source,
        row.consentText ?? null,
        row.ip ?? null,
        row.userAgent ?? null,
        row.at.getTime(),
      );
    },
    /**
     * Whether the person opted out of everything sent from our number (a STOP, or Twilio's 21610) and has not
     * texted START since. One query.
     */
    optedOut(customerId: number): boolean {
      return (optedOut ??= prepareOptedOut(db)).get(customerId)?.out === 1;
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
  return db.$client.prepare<never, [number, number | null, string, string, string | null, string | null, string | null, number]>(
    "INSERT INTO consent_events (customer_id, business_id, kind, source, consent_text, ip, user_agent, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
}

function prepareOptedOut(db: Db) {
  return db.$client.prepare<{ out: number }, [number]>(`SELECT ${underOptOutSql("?1")} AS out`);
}
