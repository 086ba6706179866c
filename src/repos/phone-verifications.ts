import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { phoneVerifications } from "../db/schema.ts";

export type PhoneVerificationRow = typeof phoneVerifications.$inferSelect;

// The one live code per account (the primary key is the user): a new code replaces the old one.
export function phoneVerificationsRepo(db: Db) {
  return {
    find(userId: number): PhoneVerificationRow | undefined {
      return db.select().from(phoneVerifications).where(eq(phoneVerifications.userId, userId)).get();
    },
    /** Stores a new code (hashed) for the account, replacing any older one, with its tries back at 0. */
    replace(row: { userId: number; phone: string; codeHash: string; expiresAt: Date; createdAt: Date }): void {
      db.insert(phoneVerifications)
        .values({ ...row, attempts: 0 })
        .onConflictDoUpdate({
          target: phoneVerifications.userId,
          set: { phone: row.phone, codeHash: row.codeHash, expiresAt: row.expiresAt, createdAt: row.createdAt, attempts: 0 },
        })
        .run();
    },
    /** One more wrong try; answers the tries used so far. */
    countFailure(userId: number): number {
      return (
        db
          .update(phoneVerifications)
          .set({ attempts: sql`${phoneVerifications.attempts} + 1` })
          .where(eq(phoneVerifications.userId, userId))
          .returning({ attempts: phoneVerifications.attempts })
          .get()?.attempts ?? 0
      );
    },
    remove(userId: number): void {
      db.delete(phoneVerifications).where(eq(phoneVerifications.userId, userId)).run();
    },
  };
}
