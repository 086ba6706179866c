import { eq, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { businesses, uploads } from "../db/schema.ts";

export type UploadRow = typeof uploads.$inferSelect;
export type NewUploadRow = Omit<typeof uploads.$inferInsert, "id" | "createdAt">;
export type UploadKind = UploadRow["kind"];

export function uploadsRepo(db: Db) {
  return {
    insert(row: NewUploadRow): UploadRow {
      return db.insert(uploads).values(row).returning().get();
    },
    findByFileName(fileName: string): UploadRow | undefined {
      return db.select().from(uploads).where(eq(uploads.fileName, fileName)).get();
    },
    listByOwner(ownerId: number): UploadRow[] {
      return db.select().from(uploads).where(eq(uploads.ownerId, ownerId)).orderBy(uploads.id).all();
    },
    delete(fileName: string): boolean {
      return db.delete(uploads).where(eq(uploads.fileName, fileName)).returning({ id: uploads.id }).all().length > 0;
    },
    /** How many businesses show this image (by its public path) as logo or sample image. */
    countBusinessReferences(publicPath: string): number {
      return (
        db
          .select({ n: sql<number>`count(*)` })
          .from(businesses)
          .where(or(eq(businesses.logoImagePath, publicPath), eq(businesses.sampleImagePath, publicPath)))
          .get()?.n ?? 0
      );
    },
  };
}
