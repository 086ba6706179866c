import { and, eq, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { broadcasts, businesses, uploads } from "../db/schema.ts";

export type UploadRow = typeof uploads.$inferSelect;
export type NewUploadRow = Omit<typeof uploads.$inferInsert, "id">;
export type UploadKind = UploadRow["kind"];

// The public path an upload is referenced by ("/uploads/<file_name>"), as businesses and broadcasts store it.
const publicPathOf = sql`'/uploads/' || ${uploads.fileName}`;

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
    /** The bytes an owner's stored images take (every kind), for the upload quota. */
    totalSizeByOwner(ownerId: number): number {
      return (
        db
          .select({ n: sql<number>`coalesce(sum(${uploads.size}), 0)` })
          .from(uploads)
          .where(eq(uploads.ownerId, ownerId))
          .get()?.n ?? 0
      );
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
    /**
     * Deletes the rows of uploads made before `cutoff` that no business (logo or sample image) and no broadcast
     * references, and returns their file names (the caller removes the files once this has committed).
     */
    deleteUnreferencedBefore(cutoff: Date): string[] {
      const referenced = or(
        sql`exists (select 1 from ${businesses} where ${businesses.logoImagePath} = ${publicPathOf} or ${businesses.sampleImagePath} = ${publicPathOf})`,
        sql`exists (select 1 from ${broadcasts} where ${broadcasts.imagePath} = ${publicPathOf})`,
      );
      return db
        .delete(uploads)
        .where(and(lt(uploads.createdAt, cutoff), sql`not (${referenced})`))
        .returning({ fileName: uploads.fileName })
        .all()
        .map((r) => r.fileName);
    },
  };
}
