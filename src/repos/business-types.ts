import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { businessTypes } from "../db/schema.ts";

export type BusinessTypeRow = typeof businessTypes.$inferSelect;
export type BusinessTypeFields = Omit<typeof businessTypes.$inferInsert, "id" | "createdAt">;

/** How two names are compared for "the same name": case-insensitive, beyond ASCII (SQLite's lower() is ASCII-only). */
export function nameKey(name: string): string {
  return name.trim().normalize("NFC").toLocaleLowerCase("en-US");
}

export function businessTypesRepo(db: Db) {
  return {
    /** Alphabetical regardless of case, oldest first among equals. */
    list(): BusinessTypeRow[] {
      return db
        .select()
        .from(businessTypes)
        .orderBy(sql`${businessTypes.name} collate nocase`, businessTypes.id)
        .all();
    },
    findById(id: number): BusinessTypeRow | undefined {
      return db.select().from(businessTypes).where(eq(businessTypes.id, id)).get();
    },
    /**
     * The type whose name equals `name` ignoring case (Unicode-aware), if any. Types are a short admin-managed
     * list, so comparing in JS is cheap and catches "Café"/"CAFÉ", which the ASCII unique index lets through.
     */
    findByName(name: string): BusinessTypeRow | undefined {
      const key = nameKey(name);
      return db
        .select()
        .from(businessTypes)
        .all()
        .find((row) => nameKey(row.name) === key);
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
