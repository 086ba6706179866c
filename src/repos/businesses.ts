import { and, count, desc, eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { businesses, businessTypes, deliveries, subscriptions } from "../db/schema.ts";
import type { Keyset } from "../schemas/paging.ts";

export type BusinessRow = typeof businesses.$inferSelect;
export type BusinessFields = Omit<typeof businesses.$inferInsert, "id" | "createdAt">;
/** A business with the name of its type (null if the type row is gone). */
export type BusinessWithType = BusinessRow & { typeName: string | null };

const withType = { ...getTableColumns(businesses), typeName: businessTypes.name };

export interface PublicFilter {
  search: string | null;
  businessTypeId: number | null;
}

// "is_active = 1" written out, not bound: SQLite uses a partial index only for a WHERE it can see matches its own.
const activeMatching = (f: PublicFilter) =>
  and(
    sql`${businesses.isActive} = 1`,
    f.businessTypeId === null ? undefined : eq(businesses.businessTypeId, f.businessTypeId),
    f.search === null ? undefined : sql`instr(lower(${businesses.name}), lower(${f.search})) > 0`,
  );

export function businessesRepo(db: Db) {
  const base = () => db.select(withType).from(businesses).leftJoin(businessTypes, eq(businessTypes.id, businesses.businessTypeId));
  return {
    findById(id: number): BusinessWithType | undefined {
      return base().where(eq(businesses.id, id)).get();
    },
    listAll(): BusinessWithType[] {
      return base().orderBy(desc(businesses.createdAt), desc(businesses.id)).all();
    },
    listActive(): BusinessWithType[] {
      return base().where(eq(businesses.isActive, true)).orderBy(businesses.name).all();
    },
    listByOwner(ownerId: number): BusinessWithType[] {
      return base().where(eq(businesses.ownerId, ownerId)).orderBy(desc(businesses.createdAt), desc(businesses.id)).all();
    },
    listActiveByType(businessTypeId: number): BusinessWithType[] {
      return base()
        .where(and(eq(businesses.businessTypeId, businessTypeId), eq(businesses.isActive, true)))
        .orderBy(businesses.name)
        .all();
    },
    /**
     * One page of the public list (ListBusinesses): active businesses by name then id, after the keyset `after`,
     * whose name contains `search` (ASCII letters in any case) and of one type when given.
     */
    pageActive(filter: PublicFilter, after: Keyset<string> | null, limit: number): BusinessWithType[] {
      const past = after ? sql`(${businesses.name} > ${after.key} OR (${businesses.name} = ${after.key} AND ${businesses.id} > ${after.id}))` : undefined;
      return base().where(and(activeMatching(filter), past)).orderBy(businesses.name, businesses.id).limit(limit).all();
    },
    countActive(filter: PublicFilter): number {
      return db.select({ n: count() }).from(businesses).where(activeMatching(filter)).get()?.n ?? 0;
    },
    insert(fields: BusinessFields): BusinessRow {
      return db.insert(businesses).values(fields).returning().get();
    },
    update(id: number, fields: Partial<BusinessFields>): BusinessRow | undefined {
      return db.update(businesses).set(fields).where(eq(businesses.id, id)).returning().get();
    },
    delete(id: number): boolean {
      return db.delete(businesses).where(eq(businesses.id, id)).returning({ id: businesses.id }).all().length > 0;
    },
    /**
     * The business a HELP from this customer is about: of their active subscriptions, the one that messaged them
     * most recently (latest sent delivery), else the most recent subscription. Undefined when none is active.
     */
    helpContactFor(customerId: number): Pick<BusinessRow, "id" | "name" | "phone"> | undefined {
      const lastSent = db
        .select({ at: sql<number | null>`max(${deliveries.sentAt})` })
        .from(deliveries)
        .where(and(eq(deliveries.customerId, customerId), eq(deliveries.businessId, businesses.id)));
      return db
        .select({ id: businesses.id, name: businesses.name, phone: businesses.phone })
        .from(subscriptions)
        .innerJoin(businesses, eq(businesses.id, subscriptions.businessId))
        .where(and(eq(subscriptions.customerId, customerId), eq(subscriptions.status, "active")))
        .orderBy(sql`(${lastSent}) IS NULL`, sql`(${lastSent}) DESC`, desc(subscriptions.consentAt), desc(subscriptions.id))
        .limit(1)
        .get();
    },
    /** The business whose join keyword this is (any case), or undefined. */
    findByKeyword(keyword: string): BusinessWithType | undefined {
      return base().where(sql`upper(${businesses.keyword}) = upper(${keyword})`).get();
    },
    /** The install's only business (its number is then that business's), or undefined when there are none or several. */
    soleBusiness(): Pick<BusinessRow, "id" | "name" | "phone"> | undefined {
      const rows = db.select({ id: businesses.id, name: businesses.name, phone: businesses.phone }).from(businesses).limit(2).all();
      return rows.length === 1 ? rows[0] : undefined;
    },
    countByType(businessTypeId: number): number {
      return (
        db
          .select({ n: sql<number>`count(*)` })
          .from(businesses)
          .where(eq(businesses.businessTypeId, businessTypeId))
          .get()?.n ?? 0
      );
    },
  };
}
