// The slots of texts nobody broadcast (the text_budget table, src/db/schema.ts): what src/services/text-budget.ts
// needs to give a new text its slot under the hourly budgets and the per-number confirmation cap, and to record it.
// Raw SQL on prepared statements, like the confirmations it sits beside (confirmations.ts): every public subscription
// and every row of an import with a welcome text passes here (bench/subscribe.ts), and the per-number look-up of a
// whole import chunk is one statement with a window function, clearer in SQL than in builder fragments.
import type { Db } from "../../db/client.ts";
import { statements } from "./statements.ts";

export type BudgetKind = "confirmation" | "test" | "verification" | "reply";

const q = statements((sqlite) => ({
  // text_budget_owner_slot_idx, newest first: at most `limit` index entries.
  ownerTop: sqlite.prepare<{ slot: number }, [number, number, number]>(
    `SELECT slot_at AS slot FROM text_budget WHERE owner_id = ?1 AND slot_at > ?2 ORDER BY slot_at DESC LIMIT ?3`,
  ),
  // text_budget_slot_idx, newest first.
  installTop: sqlite.prepare<{ slot: number }, [number, number]>(
    `SELECT slot_at AS slot FROM text_budget WHERE slot_at > ?1 ORDER BY slot_at DESC LIMIT ?2`,
  ),
  // The `limit` newest confirmation slots of each number in the JSON array ?1 (text_budget_phone_slot_idx).
  phonesTop: sqlite.prepare<{ phone: string; slot: number }, [string, number, number]>(
    `SELECT phone, slot FROM (
       SELECT phone, slot_at AS slot, row_number() OVER (PARTITION BY phone ORDER BY slot_at DESC) AS n
       FROM text_budget WHERE kind = 'confirmation' AND phone IN (SELECT value FROM json_each(?1)) AND slot_at > ?2)
     WHERE n <= ?3`,
  ),
  // The ?3-th latest slot only (OFFSET ?3 - 1): one row for a single text. `IN (?1)`, not `= ?1`, on these two
  // sorted reads of every subscription: see the rule "a join or a sort beside `column = ?`" in src/repos/README.md.
  ownerNth: sqlite.prepare<{ slot: number }, [number, number, number]>(
    `SELECT slot_at AS slot FROM text_budget WHERE owner_id IN (?1) AND slot_at > ?2 ORDER BY slot_at DESC LIMIT 1 OFFSET ?3 - 1`,
  ),
  installNth: sqlite.prepare<{ slot: number }, [number, number]>(
    `SELECT slot_at AS slot FROM text_budget WHERE slot_at > ?1 ORDER BY slot_at DESC LIMIT 1 OFFSET ?2 - 1`,
  ),
  phoneNth: sqlite.prepare<{ slot: number }, [string, number, number]>(
    `SELECT slot_at AS slot FROM text_budget WHERE kind = 'confirmation' AND phone IN (?1) AND slot_at > ?2
     ORDER BY slot_at DESC LIMIT 1 OFFSET ?3 - 1`,
  ),
  insert: sqlite.prepare<unknown, [number, string, string, number, number]>(
    `INSERT INTO text_budget (owner_id, kind, phone, slot_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5)`,
  ),
}));

export interface NewSlot {
  ownerId: number;
  kind: BudgetKind;
  phone: string;
  slotAt: number;
}

export function textBudgetRepo(db: Db) {

  return {
    /** The owner's `limit` latest slots after `since`. */
    ownerSlots(ownerId: number, since: number, limit: number): number[] {
      return q(db).ownerTop.all(ownerId, since, limit).map((r) => r.slot);
    },

    /** The install's `limit` latest slots after `since`. */
    installSlots(since: number, limit: number): number[] {
      return q(db).installTop.all(since, limit).map((r) => r.slot);
    },

    /** Each number's `limit` latest confirmation slots after `since` (one statement for all of them). */
    confirmationSlots(phones: readonly string[], since: number, limit: number): Map<string, number[]> {
      const out = new Map<string, number[]>();
      if (phones.length === 0) return out;
      for (const r of q(db).phonesTop.all(JSON.stringify(phones), since, limit)) {
        const list = out.get(r.phone);
        if (list) list.push(r.slot);
        else out.set(r.phone, [r.slot]);
      }
      return out;
    },

    /** The owner's n-th latest slot after `since`; null when there are fewer. */
    ownerNth(ownerId: number, since: number, n: number): number | null {
      return q(db).ownerNth.get(ownerId, since, n)?.slot ?? null;
    },

    installNth(since: number, n: number): number | null {
      return q(db).installNth.get(since, n)?.slot ?? null;
    },

    /** The number's n-th latest confirmation slot after `since`; null when there are fewer. */
    confirmationNth(phone: string, since: number, n: number): number | null {
      return q(db).phoneNth.get(phone, since, n)?.slot ?? null;
    },

    insert(s: NewSlot, now: number): void {
      q(db).insert.run(s.ownerId, s.kind, s.phone, s.slotAt, now);
    },
  };
}

export type TextBudgetRepo = ReturnType<typeof textBudgetRepo>;
