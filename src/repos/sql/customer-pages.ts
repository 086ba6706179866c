// One page of an owner's (or the admin's) customers, newest customer first, by keyset: the page after a cursor is
// "customers with a smaller id", so rows added meanwhile never shift a page (OFFSET would repeat or skip them). The
// walk goes down subscriptions_customer_business_unique (customer_id, business_id) from the cursor, so a page reads
// about as many index entries as it returns when most subscribers are the viewer's; a phone search or a narrow filter
// reads further, bounded by the subscriptions table. Raw SQL: the filters are optional parameters of one statement.
import type { Db } from "../../db/client.ts";
import { statements } from "./statements.ts";

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

// The owner's businesses and the phone search are subqueries, not joins: with no search, no customer row is read,
// and the owner's business ids are looked up once (the total reads only the subscriptions index).
const MATCH = `
  FROM subscriptions s
  WHERE (?1 IS NULL OR s.business_id IN (SELECT id FROM businesses WHERE owner_id = ?1))
    AND (?2 IS NULL OR s.business_id = ?2)
    AND s.status IN (SELECT value FROM json_each(?3))
    AND (?4 IS NULL OR EXISTS (SELECT 1 FROM customers c WHERE c.id = s.customer_id AND instr(c.phone, ?4) > 0))`;

const q = statements((sqlite) => ({
  page: sqlite.prepare<{ id: number }, [number | null, number | null, string, string | null, number | null, number]>(
    `SELECT DISTINCT s.customer_id AS id ${MATCH} AND (?5 IS NULL OR s.customer_id < ?5)
     ORDER BY s.customer_id DESC LIMIT ?6`,
  ),
  total: sqlite.prepare<{ n: number }, [number | null, number | null, string, string | null]>(
    `SELECT COUNT(DISTINCT s.customer_id) AS n ${MATCH}`,
  ),
  // One business: a person has one subscription to it, so nothing to make distinct, and without a search the count
  // reads only subscriptions_business_status_idx (no table row).
  totalOfBusiness: sqlite.prepare<{ n: number }, [number, string, string | null]>(
    `SELECT COUNT(*) AS n FROM subscriptions s WHERE s.business_id = ?1 AND s.status IN (SELECT value FROM json_each(?2))
       AND (?3 IS NULL OR EXISTS (SELECT 1 FROM customers c WHERE c.id = s.customer_id AND instr(c.phone, ?3) > 0))`,
  ),
}));

export function customerPagesRepo(db: Db) {
  const args = (p: CustomerPageQuery) => [p.ownerId, p.businessId, JSON.stringify(p.statuses), p.digits] as const;
  return {
    /** Up to `limit` customer ids, newest first. */
    ids(p: CustomerPageQuery): number[] {
      return q(db).page.all(...args(p), p.beforeId, p.limit).map((r) => r.id);
    },
    /** How many customers match, on every page. */
    total(p: Omit<CustomerPageQuery, "beforeId" | "limit">): number {
      if (p.businessId !== null) return q(db).totalOfBusiness.get(p.businessId, JSON.stringify(p.statuses), p.digits)?.n ?? 0;
      return q(db).total.get(...args({ ...p, beforeId: null, limit: 0 }))?.n ?? 0;
    },
  };
}
