import { and, desc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { testSends, textBudget } from "../db/schema.ts";

export type TestSendRow = typeof testSends.$inferSelect;
export type TestSendStatus = TestSendRow["status"];
/** What a provider answer or status callback writes. */
export type TestSendOutcome = Pick<TestSendRow, "status" | "providerStatus" | "errorCode" | "errorMessage"> & { providerId?: string | null };

/** How far along a test is: a status only replaces one of a lower rank (callbacks come late and out of order). */
const EARLIER: Record<TestSendStatus, TestSendStatus[]> = {
  Sending: [],
  Sent: ["Sending"],
  Delivered: ["Sending", "Sent"],
  Failed: ["Sending", "Sent"],
};

// Test sends are rows of the text budget (kind 'test', src/services/text-budget.ts tryNow); the daily cap per owner
// counts them here. Each one's outcome is a test_sends row (issue 23 item 6), found by the id in its callback URL.
export function testSendsRepo(db: Db) {
  return {
    /** The owner's latest test-send times after `since` (newest first, at most `limit`). */
    recent(ownerId: number, since: number, limit: number): number[] {
      return db
        .select({ at: textBudget.slotAt })
        .from(textBudget)
        .where(and(eq(textBudget.ownerId, ownerId), eq(textBudget.kind, "test"), gt(textBudget.slotAt, new Date(since))))
        .orderBy(desc(textBudget.slotAt))
        .limit(limit)
        .all()
        .map((r) => r.at.getTime());
    },

    insert(row: typeof testSends.$inferInsert): TestSendRow {
      return db.insert(testSends).values(row).returning().get();
    },

    findById(id: number): TestSendRow | undefined {
      return db.select().from(testSends).where(eq(testSends.id, id)).get();
    },

    /** Moves the test forward to `next` (never back); false when it is already as far or further. */
    advance(id: number, next: TestSendOutcome, now: Date): boolean {
      const earlier = EARLIER[next.status];
      if (earlier.length === 0) return false;
      const set = { ...next, updatedAt: now, ...(next.providerId ? { providerId: next.providerId } : {}) };
      if (!next.providerId) delete set.providerId;
      return db.update(testSends).set(set).where(and(eq(testSends.id, id), inArray(testSends.status, earlier))).returning({ id: testSends.id }).all().length > 0;
    },
  };
}
