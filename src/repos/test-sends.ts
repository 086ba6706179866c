import { and, desc, eq, gt } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { textBudget } from "../db/schema.ts";

// Test sends are rows of the text budget (kind 'test', src/services/text-budget.ts tryNow); the daily cap per owner
// counts them here.
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
  };
}
