import { and, eq, gt, isNotNull, isNull, lte, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { passwordResets } from "../db/schema.ts";

export type PasswordResetRow = typeof passwordResets.$inferSelect;

export function passwordResetsRepo(db: Db) {
  return {
    insert(userId: number, tokenHash: string, expiresAt: Date): void {
      db.insert(passwordResets).values({ userId, tokenHash, expiresAt }).run();
    },
    findUsable(tokenHash: string, now: Date): PasswordResetRow | undefined {
      return db
        .select()
        .from(passwordResets)
        .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
        .get();
    },
    /** Marks every open reset of the user used: a reset link works once, and only the newest matters. */
    useAllForUser(userId: number, now: Date): void {
      db.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt))).run();
    },
    /** Forgets resets that can no longer be used (used or expired). */
    deleteDead(now: Date): void {
      db.delete(passwordResets).where(or(isNotNull(passwordResets.usedAt), lte(passwordResets.expiresAt, now))).run();
    },
  };
}
