import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { businesses } from "../db/schema.ts";

export function businessesRepo(db: Db) {
  return {
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
