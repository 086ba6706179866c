import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { inboundMessages } from "../db/schema.ts";

// The MessageSid of every inbound keyword message acted on. Twilio gives each message its own sid and signs it, so a
// second request with a sid already here is a replay (or Twilio retrying): the caller ignores it.
export function inboundMessagesRepo(db: Db) {
  return {
    /** Records the sid (insert-or-ignore); false when it was already recorded and nothing was written. */
    remember(messageSid: string, at: Date): boolean {
      const added = db.insert(inboundMessages).values({ messageSid, receivedAt: at }).onConflictDoNothing().returning({ sid: inboundMessages.messageSid }).all();
      return added.length === 1;
    },
    has(messageSid: string): boolean {
      return db.select({ sid: inboundMessages.messageSid }).from(inboundMessages).where(eq(inboundMessages.messageSid, messageSid)).get() !== undefined;
    },
  };
}
