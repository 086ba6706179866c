import { and, eq, gt, isNotNull, isNull, lte, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { sessions, users } from "../db/schema.ts";
import type { UserRow } from "./users.ts";

export function sessionsRepo(db: Db) {
  return {
    insert(userId: number, tokenHash: string, expiresAt: Date): void {
      db.insert(sessions).values({ userId, tokenHash, expiresAt }).run();
    },
    /** The user behind a live (unrevoked, unexpired) session token hash. */
    findLiveUser(tokenHash: string, now: Date): UserRow | undefined {
      const row = db
        .select({ user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
        .get();
      return row?.user;
    },
    revoke(tokenHash: string, now: Date): void {
      db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt))).run();
    },
    revokeAllForUser(userId: number, now: Date): void {
      db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt))).run();
    },
    /** Forgets sessions that can no longer log anyone in (expired or revoked). */
    deleteDead(now: Date): void {
      db.delete(sessions).where(or(lte(sessions.expiresAt, now), isNotNull(sessions.revokedAt))).run();
    },
  };
}
