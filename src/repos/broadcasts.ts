// Broadcasts: one row per press of Send Broadcast; its deliveries are the outbox (src/repos/sql/, which
// also writes them: the enqueue is outbox SQL).
import { and, count, desc, eq, getTableColumns, gt, gte, inArray, isNotNull, isNull, lte, not, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { broadcastCounts, broadcasts, businesses, customerInbound, customers, deliveries, subscriptions } from "../db/schema.ts";
import type { Keyset } from "../schemas/paging.ts";
import { underOptOutSql } from "./consent-events.ts";
import { emptyCounts, type StatusCounts } from "./sql/delivery-rows.ts";
import { skipUnreachableWhatsApp } from "./sql/whatsapp-skips.ts";

export type BroadcastRow = typeof broadcasts.$inferSelect & {
  /** The business's owner (for tenancy checks). */
  ownerId: number;
};

export type NewBroadcast = Pick<
  typeof broadcasts.$inferInsert,
  "businessId" | "createdBy" | "messageText" | "imagePath" | "contentSid" | "contentVariables" | "couponCode" | "uniqueCoupons" | "couponExpiresAt" | "trackLinks"
> & {
  createdAt: number;
  /** Set: a scheduled broadcast, started (its deliveries written) by the dispatcher at this time. */
  scheduledFor?: number | null;
};

/** What editing a scheduled broadcast may change. */
export interface ScheduledChanges {
  messageText?: string;
  scheduledFor?: number;
  /** null: no template any more. */
  contentSid?: string | null;
  contentVariables?: string | null;
  /** With a new text: whether its links are tracked (issue 25). */
  trackLinks?: boolean;
}

/** A scheduled broadcast still waiting: not started, not cancelled. */
const waiting = (id: number) => and(eq(broadcasts.id, id), isNull(broadcasts.startedAt), isNull(broadcasts.cancelledAt));

/**
 * Active subscribers of a business by channel: the people a broadcast goes to (so, like the enqueue, without anyone
 * under an all-business opt-out).
 */
export interface SubscriberCounts {
  total: number;
  sms: number;
  whatsapp: number;
}

/** One recipient a broadcast would go to (dry runs). */
export interface Recipient {
  customerId: number;
  phone: string;
  channel: "SMS" | "WhatsApp";
}

/** A WhatsApp recipient as the skip rules see it (the broadcast screen's warning, before sending). */
export interface WhatsAppRecipient {
  subscriptionId: number;
  phone: string;
  inWindow: boolean;
  marketingStopped: boolean;
}

/** The people a broadcast of the business goes to: its active subscribers, but no one under an opt-out (the rule the
 * enqueue in sql/enqueue.ts applies too). */
function recipientsOf(businessId: number) {
  return and(
    eq(subscriptions.businessId, businessId),
    eq(subscriptions.status, "active"),
    not(sql.raw(underOptOutSql('"subscriptions"."customer_id"'))),
  );
}

/** The business's broadcasts an owner sent: its history and the repeat check leave out opt-in confirmations. */
const promotionsOf = (businessId: number) => and(eq(broadcasts.businessId, businessId), eq(broadcasts.kind, "promotion"));

const withOwner = { ...getTableColumns(broadcasts), ownerId: businesses.ownerId };
const newestFirst = [desc(broadcasts.createdAt), desc(broadcasts.id)] as const;

export function broadcastsRepo(db: Db) {
  return {
    /** Inserts the broadcast with total 0; its deliveries follow by deliveries.enqueueNextChunk (total grows with them). */
    insert(row: NewBroadcast): number {
      // An immediate broadcast starts (its deliveries are written) as it is created; a scheduled one when the
      // dispatcher starts it (deliveries.startDueBroadcasts).
      const scheduled = row.scheduledFor !== undefined && row.scheduledFor !== null;
      const values = {
        ...row,
        total: 0,
        createdAt: new Date(row.createdAt),
        scheduledFor: scheduled ? new Date(row.scheduledFor!) : null,
        startedAt: scheduled ? null : new Date(row.createdAt),
        // An immediate broadcast's deliveries follow, a chunk at a time (deliveries.enqueueNextChunk).
        enqueuedThrough: scheduled ? null : 0,
      };
      return db.insert(broadcasts).values(values).returning({ id: broadcasts.id }).get().id;
    },
    /** Edits a scheduled broadcast that has not started nor been cancelled; false when it no longer waits. */
    updateScheduled(id: number, changes: ScheduledChanges): boolean {
      const set: Partial<typeof broadcasts.$inferInsert> = {};
      if (changes.messageText !== undefined) set.messageText = changes.messageText;
      if (changes.scheduledFor !== undefined) set.scheduledFor = new Date(changes.scheduledFor);
      if (changes.contentSid !== undefined) set.contentSid = changes.contentSid;
      if (changes.contentVariables !== undefined) set.contentVariables = changes.contentVariables;
      if (changes.trackLinks !== undefined) set.trackLinks = changes.trackLinks;
      return db.update(broadcasts).set(set).where(waiting(id)).returning({ id: broadcasts.id }).all().length > 0;
    },
    /** The WhatsApp deliveries just written that cannot arrive become Skipped with the reason (sql/whatsapp-skips.ts);
     * answers how many. Same transaction as the enqueue. */
    skipUnreachableWhatsApp(id: number, now: number): number {
      return skipUnreachableWhatsApp(db, id, now);
    },
    /** Removes a broadcast that ended up with no delivery at all (nobody subscribed by the time it was written). */
    deleteIfEmpty(id: number): boolean {
      return db.delete(broadcasts).where(and(eq(broadcasts.id, id), eq(broadcasts.total, 0), isNull(broadcasts.enqueuedThrough))).returning({ id: broadcasts.id }).all().length > 0;
    },
    /** The broadcasts not yet completed nor cancelled (scheduled ones included), oldest first. */
    unfinished(): BroadcastRow[] {
      return db
        .select(withOwner)
        .from(broadcasts)
        .innerJoin(businesses, eq(businesses.id, broadcasts.businessId))
        .where(and(isNull(broadcasts.completedAt), isNull(broadcasts.cancelledAt)))
        .orderBy(broadcasts.id)
        .all();
    },
    /** How many OTHER businesses have a broadcast sending (started, unfinished, not cancelled): the dispatcher takes
     * turns between businesses, so that many go alongside (broadcasts_unfinished_idx: only unfinished ones). */
    otherBusinessesSending(businessId: number): number {
      return db
        .select({ n: sql<number>`COUNT(DISTINCT ${broadcasts.businessId})` })
        .from(broadcasts)
        .where(and(eq(broadcasts.kind, "promotion"), isNull(broadcasts.completedAt), isNotNull(broadcasts.startedAt), isNull(broadcasts.cancelledAt), not(eq(broadcasts.businessId, businessId))))
        .get()!.n;
    },
    findById(id: number): BroadcastRow | undefined {
      return db.select(withOwner).from(broadcasts).innerJoin(businesses, eq(businesses.id, broadcasts.businessId)).where(eq(broadcasts.id, id)).get();
    },
    /** Newest first. */
    listByBusiness(businessId: number, limit = 100): BroadcastRow[] {
      return db
        .select(withOwner)
        .from(broadcasts)
        .innerJoin(businesses, eq(businesses.id, broadcasts.businessId))
        .where(promotionsOf(businessId))
        .orderBy(...newestFirst)
        .limit(limit)
        .all();
    },
    /**
     * One page of the history (ListBroadcasts), newest first: after the keyset `after` (created at, in ms, and id),
     * walking broadcasts_business_kind_created_idx.
     */
    pageByBusiness(businessId: number, after: Keyset<number> | null, limit: number): BroadcastRow[] {
      const past = after
        ? sql`(${broadcasts.createdAt} < ${after.key} OR (${broadcasts.createdAt} = ${after.key} AND ${broadcasts.id} < ${after.id}))`
        : undefined;
      return db
        .select(withOwner)
        .from(broadcasts)
        .innerJoin(businesses, eq(businesses.id, broadcasts.businessId))
        .where(and(promotionsOf(businessId), past))
        .orderBy(...newestFirst)
        .limit(limit)
        .all();
    },
    /** The texts of each business's `perBusiness` newest promotions, newest first (the checklist's sample check,
     * for every business in one statement). */
    recentTextsByBusiness(perBusiness: number): Map<number, string[]> {
      const rank = sql<number>`row_number() over (partition by ${broadcasts.businessId} order by ${broadcasts.createdAt} desc, ${broadcasts.id} desc)`;
      const ranked = db
        .select({ businessId: broadcasts.businessId, messageText: broadcasts.messageText, rank: rank.as("rank") })
        .from(broadcasts)
        .where(eq(broadcasts.kind, "promotion"))
        .as("ranked");
      const out = new Map<number, string[]>();
      for (const r of db.select().from(ranked).where(lte(ranked.rank, perBusiness)).orderBy(ranked.businessId, sql`"rank"`).all()) {
        const list = out.get(r.businessId) ?? [];
        list.push(r.messageText);
        out.set(r.businessId, list);
      }
      return out;
    },
    countByBusiness(businessId: number): number {
      return db.select({ n: count() }).from(broadcasts).where(promotionsOf(businessId)).get()?.n ?? 0;
    },
    /** Delivery counts by status of each of these broadcasts (all zero for none), from the counts the triggers keep. */
    countsFor(ids: number[]): Map<number, StatusCounts> {
      const rows = db
        .select({ broadcastId: broadcastCounts.broadcastId, status: broadcastCounts.status, n: sql<number>`sum(${broadcastCounts.n})` })
        .from(broadcastCounts)
        .where(inArray(broadcastCounts.broadcastId, ids))
        .groupBy(broadcastCounts.broadcastId, broadcastCounts.status)
        .all();
      const out = new Map(ids.map((id) => [id, emptyCounts()]));
      for (const r of rows) out.get(r.broadcastId)![r.status] = r.n;
      return out;
    },

    subscriberCounts(businessId: number): SubscriberCounts {
      const rows = db
        .select({ channel: subscriptions.contactPreference, n: count() })
        .from(subscriptions)
        .where(recipientsOf(businessId))
        .groupBy(subscriptions.contactPreference)
        .all();
      const out: SubscriberCounts = { total: 0, sms: 0, whatsapp: 0 };
      for (const r of rows) {
        out.total += r.n;
        if (r.channel === "WhatsApp") out.whatsapp += r.n;
        else out.sms += r.n;
      }
      return out;
    },
    /** Whether a broadcast would go to anyone now: stops at the first one (the publish check before an image is stored). */
    hasRecipients(businessId: number): boolean {
      return db.select({ one: sql`1` }).from(subscriptions).where(recipientsOf(businessId)).limit(1).get() !== undefined;
    },
    /** The active subscribers a broadcast would go to now (no one under an opt-out), in enqueue order. */
    recipients(businessId: number): Recipient[] {
      return db
        .select({ customerId: customers.id, phone: customers.phone, channel: subscriptions.contactPreference })
        .from(subscriptions)
        .innerJoin(customers, eq(customers.id, subscriptions.customerId))
        .where(recipientsOf(businessId))
        .orderBy(subscriptions.id)
        .all();
    },
    /** The business's WhatsApp recipients after subscription `after`, `limit` of them in enqueue order, with what the
     * WhatsApp rules ask of each (sql/whatsapp-skips.ts): wrote to us since `inWindowSince`, stopped marketing. */
    whatsappRecipientsPage(businessId: number, inWindowSince: number, after: number, limit: number): WhatsAppRecipient[] {
      return db
        .select({
          subscriptionId: subscriptions.id,
          phone: customers.phone,
          inWindow: sql<number>`${customerInbound.customerId} IS NOT NULL`,
          marketingStopped: sql<number>`${customers.whatsappMarketingStoppedAt} IS NOT NULL`,
        })
        .from(subscriptions)
        .innerJoin(customers, eq(customers.id, subscriptions.customerId))
        .leftJoin(
          customerInbound,
          and(
            eq(customerInbound.customerId, subscriptions.customerId),
            eq(customerInbound.channel, "WhatsApp"),
            gt(customerInbound.lastInboundAt, new Date(inWindowSince)),
          ),
        )
        .where(and(recipientsOf(businessId), eq(subscriptions.contactPreference, "WhatsApp"), gt(subscriptions.id, after)))
        .orderBy(subscriptions.id)
        .limit(limit)
        .all()
        .map((r) => ({ ...r, inWindow: r.inWindow === 1, marketingStopped: r.marketingStopped === 1 }));
    },
    delete(id: number): void {
      db.delete(broadcasts).where(eq(broadcasts.id, id)).run();
    },
    /** The newest broadcast of the business with exactly this text created at or after `since` (the repeat check of
     * a publish; broadcasts_business_idx narrows it to the business's own rows). Scheduled ones count (a double
     * press of Schedule), cancelled ones do not (they will never be sent). */
    latestWithText(businessId: number, messageText: string, since: number): BroadcastRow | undefined {
      return db
        .select(withOwner)
        .from(broadcasts)
        .innerJoin(businesses, eq(businesses.id, broadcasts.businessId))
        .where(
          and(
            promotionsOf(businessId),
            eq(broadcasts.messageText, messageText),
            gte(broadcasts.createdAt, new Date(since)),
            isNull(broadcasts.cancelledAt),
          ),
        )
        .orderBy(...newestFirst)
        .limit(1)
        .get();
    },
  };
}

export type BroadcastsRepo = ReturnType<typeof broadcastsRepo>;
