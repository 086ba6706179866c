import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { settings } from "../db/schema.ts";

export type SettingRow = typeof settings.$inferSelect;

export function settingsRepo(db: Db) {
  const all = db.select().from(settings).prepare();
  // The dispatcher reads its pauses (paused.SMS, paused.WhatsApp) with every housekeeping: prepared once.
  const byKey = db.select({ value: settings.value }).from(settings).where(eq(settings.key, sql.placeholder("key"))).prepare();
  return {
    /** Every saved setting: a dozen short rows, read whenever a setting is needed, so another process's change
     * (`nearcast settings set` while serving) is seen at once. */
    all(): Record<string, string> {
      return Object.fromEntries(all.all().map((r) => [r.key, r.value]));
    },
    save(key: string, value: string, now: Date): void {
      db.insert(settings).values({ key, value, updatedAt: now }).onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } }).run();
    },
    remove(keys: string[]): void {
      if (keys.length) db.delete(settings).where(inArray(settings.key, keys)).run();
    },
    get(key: string): string | undefined {
      return byKey.get({ key })?.value;
    },
  };
}
