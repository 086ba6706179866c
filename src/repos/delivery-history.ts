import { and, count, desc, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { broadcasts, businesses, deliveries } from "../db/schema.ts";
import type { Keyset } from "../schemas/paging.ts";

// Reads of sent messages (the customer messages modal) and the few writes that come from outside the dispatcher:
// status callbacks moving a delivery forward, and an opt-out skipping what was not sent yet. The dispatcher's own
// claim/record statements are the outbox, in src/repos/sql/.

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
  /** A promotion, an opt-in confirmation, or the owner's answer in the inbox. */
  kind: "promotion" | "confirmation" | "reply";
  imagePath: string | null;
  errorCode: number | null;
  errorMessage: string | null;
}

/** The columns a status callback writes. */
export type StatusColumns = Pick<DeliveryRow, "status" | "providerId" | "providerStatus" | "errorCode" | "errorMessage" | "sentAt" | "updatedAt">;

const param = sql.placeholder;

// A status callback runs these two per request: compiled once (drizzle's prepare), as building the query each
// time costs more than running it. Placeholders take times as milliseconds (no column mapping on the way in).
function prepareCallbackStatements(db: Db) {
  return {
    findById: db.select().from(deliveries).where(eq(deliveries.id, param("id"))).prepare(),
    updateIfStatus: db
      .update(deliveries)
      .set({
        status: sql`${param("status")}`,
        providerId: sql`${param("providerId")}`,
        providerStatus: sql`${param("providerStatus")}`,
        errorCode: sql`${param("errorCode")}`,
        errorMessage: sql`${param("errorMessage")}`,
        sentAt: sql`${param("sentAt")}`,
        updatedAt: sql`${param("updatedAt")}`,
      })
      .where(and(eq(deliveries.id, param("id")), eq(deliveries.status, param("readStatus")), sql`${deliveries.providerId} IS ${param("readProviderId")}`))
      .returning({ id: deliveries.id })
      .prepare(),
  };
}

/** When the modal says a message happened: sent, else queued (ms). */
const SHOWN_AT = sql<number>`coalesce(${deliveries.sentAt}, ${broadcasts.createdAt})`;

const visibleTo = (customerId: number, ownerId: number | null) =>
  ownerId === null ? eq(deliveries.customerId, customerId) : and(eq(deliveries.customerId, customerId), eq(businesses.ownerId, ownerId));

export function deliveryHistoryRepo(db: Db) {
  function historyOf<X extends Record<string, SQL>>(customerId: number, ownerId: number | null, past?: SQL, extra?: X) {
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
        kind: broadcasts.kind,
        imagePath: broadcasts.imagePath,
        errorCode: deliveries.errorCode,
        errorMessage: deliveries.errorMessage,
        ...(extra as X),
      })
      .from(deliveries)
      .innerJoin(broadcasts, eq(broadcasts.id, deliveries.broadcastId))
      .innerJoin(businesses, eq(businesses.id, deliveries.businessId))
      .where(and(visibleTo(customerId, ownerId), past))
      .$dynamic();
  }

  let statements: ReturnType<typeof prepareCallbackStatements> | undefined;
  const q = () => (statements ??= prepareCallbackStatements(db));
  const ms = (d: Date | null) => (d ? d.getTime() : null);
  return {
    findById(id: number): DeliveryRow | undefined {
      return q().findById.get({ id });
    },
    /**
     * Compare-and-set: writes `next` only if the row still has the status and provider id it was read with. False
     * when another writer got there first; the caller re-reads and decides again.
     */
    updateIfStatus(read: Pick<DeliveryRow, "id" | "status" | "providerId">, next: StatusColumns): boolean {
      const written = q().updateIfStatus.all({
        ...next,
        sentAt: ms(next.sentAt),
        updatedAt: ms(next.updatedAt),
        id: read.id,
        readStatus: read.status,
        readProviderId: read.providerId,
      });
      return written.length > 0;
    },
    /**
     * The customer's deliveries that were not handed to the provider yet become Skipped: Queued ones, and
     * Uncertain ones with no provider id (the provider never confirmed them). Sending rows are in the dispatcher's
     * hands and are left alone. With `businessId`, only that business's. Answers how many rows changed.
     */
    skipPendingForCustomer(customerId: number, at: Date, errorMessage: string, businessId?: number): number {
      const changed = db
        .update(deliveries)
        .set({ status: "Skipped", errorMessage, updatedAt: at })
        .where(
          and(
            eq(deliveries.customerId, customerId),
            businessId === undefined ? undefined : eq(deliveries.businessId, businessId),
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
      return historyOf(customerId, ownerId).orderBy(desc(SHOWN_AT), desc(deliveries.id)).all();
    },
    /**
     * One page of the same list (ListCustomerMessages): `limit` rows after the keyset `after` (the shown time in ms,
     * and the id). Reads the customer's deliveries by deliveries_customer_idx: a person gets one message per
     * broadcast, so sorting theirs is cheap however big the table.
     */
    pageForCustomer(customerId: number, ownerId: number | null, after: Keyset<number> | null, limit: number): (DeliveryHistoryRow & { shownAt: number })[] {
      const past = after ? sql`(${SHOWN_AT} < ${after.key} OR (${SHOWN_AT} = ${after.key} AND ${deliveries.id} < ${after.id}))` : undefined;
      return historyOf(customerId, ownerId, past, { shownAt: SHOWN_AT }).orderBy(desc(SHOWN_AT), desc(deliveries.id)).limit(limit).all();
    },
    /** How many messages the list has for this viewer. */
    countForCustomer(customerId: number, ownerId: number | null): number {
      return (
        db
          .select({ n: count() })
          .from(deliveries)
          .innerJoin(businesses, eq(businesses.id, deliveries.businessId))
          .where(visibleTo(customerId, ownerId))
          .get()?.n ?? 0
      );
    },
  };
}

export type DeliveryHistoryRepo = ReturnType<typeof deliveryHistoryRepo>;
