import { and, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { broadcasts, businesses, users } from "../db/schema.ts";

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export function usersRepo(db: Db) {
  return {
    findById(id: number): UserRow | undefined {
      return db.select().from(users).where(eq(users.id, id)).get();
    },
    findByEmail(email: string): UserRow | undefined {
      return db.select().from(users).where(eq(users.email, email.toLowerCase())).get();
    },
    insert(row: NewUserRow): UserRow {
      return db.insert(users).values(row).returning().get();
    },
    list(): UserRow[] {
      return db.select().from(users).orderBy(users.id).all();
    },
    setPasswordHash(id: number, passwordHash: string): void {
      db.update(users).set({ passwordHash }).where(eq(users.id, id)).run();
    },
    /** The owner's own mobile (E.164), or null to clear it; a new number is unverified until its code comes back. */
    setPhone(id: number, phone: string | null): void {
      db.update(users).set({ phone, phoneVerifiedAt: null }).where(eq(users.id, id)).run();
    },
    /** The phone answered its code; only if it is still `phone` (a change meanwhile keeps it unverified). */
    markPhoneVerified(id: number, phone: string, at: Date): boolean {
      return db.update(users).set({ phoneVerifiedAt: at }).where(and(eq(users.id, id), eq(users.phone, phone))).returning({ id: users.id }).all().length > 0;
    },
    setStatus(id: number, status: UserRow["status"]): void {
      db.update(users).set({ status }).where(eq(users.id, id)).run();
    },
    /** Accounts in one state, oldest first (the admin's home lists the pending ones). */
    listByStatus(status: UserRow["status"]): UserRow[] {
      return db.select().from(users).where(eq(users.status, status)).orderBy(users.id).all();
    },
    /** Everything the account owns goes with it (businesses, their customers' subscriptions, broadcasts, uploads:
     * the foreign keys cascade). */
    delete(id: number): boolean {
      return db.delete(users).where(eq(users.id, id)).returning({ id: users.id }).all().length > 0;
    },
    /** Cancels the account's scheduled broadcasts that have not started (a refused account texts nobody). */
    cancelScheduledBroadcastsOf(ownerId: number, now: number): number {
      const owned = db.select({ id: businesses.id }).from(businesses).where(eq(businesses.ownerId, ownerId));
      return db
        .update(broadcasts)
        .set({ cancelledAt: new Date(now) })
        .where(and(inArray(broadcasts.businessId, owned), isNotNull(broadcasts.scheduledFor), isNull(broadcasts.startedAt), isNull(broadcasts.cancelledAt)))
        .returning({ id: broadcasts.id })
        .all().length;
    },
    /** Approved admins other than this account (the ones who could still sign in and run the server). */
    countOtherAdmins(id: number): number {
      return db.select({ n: sql<number>`count(*)` }).from(users).where(and(eq(users.role, "admin"), eq(users.status, "approved"), ne(users.id, id))).get()?.n ?? 0;
    },
    setRole(id: number, role: UserRow["role"]): void {
      db.update(users).set({ role }).where(eq(users.id, id)).run();
    },
    countAdmins(): number {
      return db.select({ n: sql<number>`count(*)` }).from(users).where(eq(users.role, "admin")).get()?.n ?? 0;
    },
  };
}
