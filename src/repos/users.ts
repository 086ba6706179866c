import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { users } from "../db/schema.ts";

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
    /** The owner's own mobile (E.164), or null to clear it. */
    setPhone(id: number, phone: string | null): void {
      db.update(users).set({ phone }).where(eq(users.id, id)).run();
    },
    setRole(id: number, role: UserRow["role"]): void {
      db.update(users).set({ role }).where(eq(users.id, id)).run();
    },
    countAdmins(): number {
      return db.select({ n: sql<number>`count(*)` }).from(users).where(eq(users.role, "admin")).get()?.n ?? 0;
    },
  };
}
