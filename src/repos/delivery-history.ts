import type { Database } from "bun:sqlite";
import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { broadcasts, businesses, deliveries } from "../db/schema.ts";

// Reads of sent messages (the customer messages modal) and the few writes that come from outside the dispatcher:
// status callbacks moving a delivery forward, and an opt-out skipping what was not sent yet. The dispatcher's own
// claim/record queries live in deliveries.ts.

export type DeliveryRow = typeof deliveries.$inferSelect;
export type DeliveryStatusValue = DeliveryRow["status"];

/** One message to one customer, with what the modal shows about its broadcast and business. */
export interface DeliveryHistoryRow {
  id: number;
  businessId: number;
  businessName: string;
  ownerId: number;
  status: DeliveryStatusValue;
  channel: DeliveryRow["channel"];
  sentAt: Date | null;
  queuedAt: Date;
  messageText: string;
  imagePath: string | null;
  errorCode: number | null;
  errorMessage: string | null;
}


/** The columns a status callback may write (the whole set is written each time: one prepared statement). */
export type StatusColumns = Pick<DeliveryRow, "status" | "providerId" | "providerStatus" | "errorCode" | "errorMessage" | "sentAt" | "updatedAt">;

interface RawDelivery extends Omit<DeliveryRow, "nextAttemptAt" | "claimedAt" | "sentAt" | "updatedAt"> {
  nextAttemptAt: number;
  claimedAt: number | null;
  sentAt: number | null;
  updatedAt: number | null;
}

const COLUMNS = `id, broadcast_id AS broadcastId, customer_id AS customerId, business_id AS businessId, channel,
  to_phone AS toPhone, status, attempts, next_attempt_at AS nextAttemptAt, claimed_at AS claimedAt, sent_at AS sentAt,
  updated_at AS updatedAt, provider_id AS providerId, provider_status AS providerStatus, error_code AS errorCode,
  error_message AS errorMessage`;

const toDate = (ms: number | null) => (ms === null ? null : new Date(ms));

function toRow(r: RawDelivery | null): DeliveryRow | undefined {
  if (!r) return undefined;
  return { ...r, nextAttemptAt: new Date(r.nextAttemptAt), claimedAt: toDate(r.claimedAt), sentAt: toDate(r.sentAt), updatedAt: toDate(r.updatedAt) };
}

// The status-callback path runs these per request: plain SQL on statements compiled once (drizzle's query builder
// costs more than the query itself here).
function prepare(sqlite: Database) {
  return {
    findById: sqlite.prepare<RawDelivery, [number]>(`SELECT ${COLUMNS} FROM deliveries WHERE id = ?1`),
    updateIfStatus: sqlite.prepare<unknown, [number, string, string | null, string, string | null, string | null, number | null, string | null, number | null, number | null]>(
      `UPDATE deliveries SET status = ?4, provider_id = ?5, provider_status = ?6, error_code = ?7, error_message = ?8,
         sent_at = ?9, updated_at = ?10
       WHERE id = ?1 AND status = ?2 AND provider_id IS ?3`,
    ),
  };
}

export function deliveryHistoryRepo(db: Db) {
  const sqlite = db.$client;
  let ps: ReturnType<typeof prepare> | undefined;
  const q = () => (ps ??= prepare(sqlite));
  return {
    /** Runs fn in one transaction, or a savepoint inside an open one (bun:sqlite nests them). Synchronous only. */
    atomic<T>(fn: () => T): T {
      return sqlite.transaction(fn)();
    },
    findById(id: number): DeliveryRow | undefined {
      return toRow(q().findById.get(id));
    },
    /**
     * Compare-and-set: writes `next` only if the row still has the status and provider id it was read with. False
     * when another writer got there first; the caller re-reads and decides again.
     */
    updateIfStatus(read: Pick<DeliveryRow, "id" | "status" | "providerId">, next: StatusColumns): boolean {
      const ms = (d: Date | null) => (d ? d.getTime() : null);
      return (
        q().updateIfStatus.run(
          read.id,
          read.status,
          read.providerId,
          next.status,
          next.providerId,
          next.providerStatus,
          next.errorCode,
          next.errorMessage,
          ms(next.sentAt),
          ms(next.updatedAt),
        ).changes > 0
      );
    },
    /**
     * The customer's deliveries that were not handed to the provider yet become Skipped: Queued ones, and
     * Uncertain ones with no provider id (the provider never confirmed them). Sending rows are in the dispatcher's
     * hands and are left alone. Answers how many rows changed.
     */
    skipPendingForCustomer(customerId: number, at: Date, errorMessage: string): number {
      const changed = db
        .update(deliveries)
        .set({ status: "Skipped", errorMessage, updatedAt: at })
        .where(
          and(
            eq(deliveries.customerId, customerId),
            or(
              eq(deliveries.status, "Queued"),
              and(eq(deliveries.status, "Uncertain"), isNull(deliveries.providerId), isNull(deliveries.sentAt)),
            ),
          ),
        )
        .returning({ id: deliveries.id })
        .all();
      return changed.length;
    },
    /**
     * The messages sent (or queued) to one customer, newest first: for the owner's businesses (ownerId given) or
     * every business (null, the admin). Newest = sent time, or the time it was queued for one not sent yet.
     */
    listForCustomer(customerId: number, ownerId: number | null): DeliveryHistoryRow[] {
      const mine = eq(deliveries.customerId, customerId);
      const when = sql`coalesce(${deliveries.sentAt}, ${broadcasts.createdAt})`;
      return db
        .select({
          id: deliveries.id,
          businessId: businesses.id,
          businessName: businesses.name,
          ownerId: businesses.ownerId,
          status: deliveries.status,
          channel: deliveries.channel,
          sentAt: deliveries.sentAt,
          queuedAt: broadcasts.createdAt,
          messageText: broadcasts.messageText,
          imagePath: broadcasts.imagePath,
          errorCode: deliveries.errorCode,
          errorMessage: deliveries.errorMessage,
        })
        .from(deliveries)
        .innerJoin(broadcasts, eq(broadcasts.id, deliveries.broadcastId))
        .innerJoin(businesses, eq(businesses.id, deliveries.businessId))
        .where(ownerId === null ? mine : and(mine, eq(businesses.ownerId, ownerId)))
        .orderBy(desc(when), desc(deliveries.id))
        .all();
    },
    /** Status counts of a customer's deliveries (for tests and the CLI). */
    countByStatus(customerId: number, statuses: DeliveryStatusValue[]): number {
      return (
        db
          .select({ n: sql<number>`count(*)` })
          .from(deliveries)
          .where(and(eq(deliveries.customerId, customerId), inArray(deliveries.status, statuses)))
          .get()?.n ?? 0
      );
    },
  };
}

export type DeliveryHistoryRepo = ReturnType<typeof deliveryHistoryRepo>;
