import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { businessTypes } from "../db/schema.ts";

export type BusinessTypeRow = typeof businessTypes.$inferSelect;
export type BusinessTypeFields = Omit<typeof businessTypes.$inferInsert, "id" | "createdAt">;

export function businessTypesRepo(db: Db) {
  return {
    list(): BusinessTypeRow[] {
      return db.select().from(businessTypes).orderBy(businessTypes.name).all();
    },
    findById(id: number): BusinessTypeRow | undefined {
      return db.select().from(businessTypes).where(eq(businessTypes.id, id)).get();
    },
    findByName(name: string): BusinessTypeRow | undefined {
      return db
        .select()
        .from(businessTypes)
        .where(sql`lower(${businessTypes.name}) = lower(${name})`)
        .orderBy(desc(businessTypes.id))
        .get();
    },
    insert(fields: BusinessTypeFields): BusinessTypeRow {
      return db.insert(businessTypes).values(fields).returning().get();
    },
    update(id: number, fields: BusinessTypeFields): BusinessTypeRow | undefined {
      return db.update(businessTypes).set(fields).where(eq(businessTypes.id, id)).returning().get();
    },
    delete(id: number): boolean {
      return db.delete(businessTypes).where(eq(businessTypes.id, id)).returning({ id: businessTypes.id }).all().length > 0;
    },
  };
}
