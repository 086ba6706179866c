// One page of an owner's (or the admin's) customers, newest customer first, by keyset: the page after a cursor is
// "customers with a smaller id", so rows added meanwhile never shift a page (OFFSET would repeat or skip them). The
// walk goes down subscriptions_customer_business_unique (customer_id, business_id) from the cursor, so a page reads
// about as many index entries as it returns when most subscribers are the viewer's; a phone search or a narrow filter
// reads further, bounded by the subscriptions table. Raw SQL: the filters are optional parameters of one statement.
import type { Database } from "bun:sqlite";
import type { Db } from "../db/client.ts";

export interface CustomerPageQuery {
  /** null: every business (the admin). */
  ownerId: number | null;
  businessId: number | null;
  /** Subscription statuses that make a customer listed. */
  statuses: readonly string[];
  /** Digits the phone must contain; null: any. */
  digits: string | null;
  /** Customers with an id below this; null: from the newest. */
  beforeId: number | null;
  limit: number;
}

const MATCH = `
  FROM subscriptions s
  JOIN businesses b ON b.id = s.business_id
  JOIN customers c ON c.id = s.customer_id
  WHERE (?1 IS NULL OR b.owner_id = ?1)
    AND (?2 IS NULL OR s.business_id = ?2)
    AND s.status IN (SELECT value FROM json_each(?3))
    AND (?4 IS NULL OR instr(c.phone, ?4) > 0)`;

function prepare(sqlite: Database) {
  return {
    page: sqlite.prepare<{ id: number }, [number | null, number | null, string, string | null, number | null, number]>(
      `SELECT DISTINCT s.customer_id AS id ${MATCH} AND (?5 IS NULL OR s.customer_id < ?5)
       ORDER BY s.customer_id DESC LIMIT ?6`,
    ),
    total: sqlite.prepare<{ n: number }, [number | null, number | null, string, string | null]>(
      `SELECT COUNT(DISTINCT s.customer_id) AS n ${MATCH}`,
    ),
  };
}

export function customerPagesRepo(db: Db) {
  let ps: ReturnType<typeof prepare> | undefined;
  const q = () => (ps ??= prepare(db.$client));
  const args = (p: CustomerPageQuery) => [p.ownerId, p.businessId, JSON.stringify(p.statuses), p.digits] as const;
  return {
    /** Up to `limit` customer ids, newest first. */
    ids(p: CustomerPageQuery): number[] {
      return q().page.all(...args(p), p.beforeId, p.limit).map((r) => r.id);
    },
    /** How many customers match, on every page. */
    total(p: Omit<CustomerPageQuery, "beforeId" | "limit">): number {
      return q().total.get(...args({ ...p, beforeId: null, limit: 0 }))?.n ?? 0;
    },
  };
}
