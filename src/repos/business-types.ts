import { and, count, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { businessTypes } from "../db/schema.ts";
import type { Keyset } from "../schemas/paging.ts";

export type BusinessTypeRow = typeof businessTypes.$inferSelect;
export type BusinessTypeFields = Omit<typeof businessTypes.$inferInsert, "id" | "createdAt">;

/** How two names are compared for "the same name": case-insensitive, beyond ASCII (SQLite's lower() is ASCII-only). */
export function nameKey(name: string): string {
  return name.trim().normalize("NFC").toLocaleLowerCase("en-US");
}

const matching = (search: string | null) => (search === null ? undefined : sql`instr(lower(${businessTypes.name}), lower(${search})) > 0`);

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
    /** One page of the same order (ListBusinessTypes): after the keyset `after`, names containing `search` (ASCII case-insensitive). */
    page(search: string | null, after: Keyset<string> | null, limit: number): BusinessTypeRow[] {
      const past = after
        ? sql`(${businessTypes.name} > ${after.key} COLLATE NOCASE OR (${businessTypes.name} = ${after.key} COLLATE NOCASE AND ${businessTypes.id} > ${after.id}))`
        : undefined;
      return db
        .select()
        .from(businessTypes)
        .where(and(matching(search), past))
        .orderBy(sql`${businessTypes.name} collate nocase`, businessTypes.id)
        .limit(limit)
        .all();
    },
    count(search: string | null): number {
      return db.select({ n: count() }).from(businessTypes).where(matching(search)).get()?.n ?? 0;
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
