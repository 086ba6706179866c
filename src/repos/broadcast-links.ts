// The URLs of a tracked broadcast's text (issue 25), in order: what its short links redirect to. Written with the
// broadcast (and rewritten when a scheduled broadcast's text changes), inside the caller's transaction.
import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { broadcastLinks } from "../db/schema.ts";

export function broadcastLinksRepo(db: Db) {
  return {
    /** The broadcast's links become `urls` (position 0..n-1); none when empty. */
    replace(broadcastId: number, urls: string[]): void {
      db.delete(broadcastLinks).where(eq(broadcastLinks.broadcastId, broadcastId)).run();
      if (urls.length === 0) return;
      db.insert(broadcastLinks).values(urls.map((url, position) => ({ broadcastId, position, url }))).run();
    },
    /** The broadcast's links in order. */
    urlsOf(broadcastId: number): string[] {
      return db.select({ url: broadcastLinks.url }).from(broadcastLinks).where(eq(broadcastLinks.broadcastId, broadcastId)).orderBy(asc(broadcastLinks.position)).all().map((r) => r.url);
    },
  };
}

export type BroadcastLinksRepo = ReturnType<typeof broadcastLinksRepo>;
