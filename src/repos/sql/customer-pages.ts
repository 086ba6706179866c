// One page of an owner's (or the admin's) customers, newest customer first, by keyset: the page after a cursor is
// "customers with a smaller id", so rows added meanwhile never shift a page (OFFSET would repeat or skip them). The
// walk goes down subscriptions_customer_business_unique (customer_id, business_id) from the cursor, so a page reads
// about as many index entries as it returns when most subscribers are the viewer's; a phone search or a narrow filter
// reads further, bounded by the subscriptions table (the admin's phone search walks customers instead: PHONE_MATCH).
// Raw SQL: the filters are optional parameters of one statement.
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

/** How many customers match, counted no further than `cap`: `capped` says there are more. */
export interface CustomerTotal {
  total: number;
  capped: boolean;
}

// The owner's businesses and the phone search are subqueries, not joins: with no search, no customer row is read,
// and the owner's business ids are looked up once (the total reads only the subscriptions index).
const MATCH = `
  FROM subscriptions s
  WHERE (?1 IS NULL OR s.business_id IN (SELECT id FROM businesses WHERE owner_id = ?1))
    AND (?2 IS NULL OR s.business_id = ?2)
    AND s.status IN (SELECT value FROM json_each(?3))
    AND (?4 IS NULL OR EXISTS (SELECT 1 FROM customers c WHERE c.id = s.customer_id AND instr(c.phone, ?4) > 0))`;

// The admin's phone search (issue 26 item 7): digits may be anywhere in a number, so no index finds them; walking
// customers newest first reads each phone once, where walking subscriptions read a customer row per subscription
// (a million of them in a town: 1.4 s). The subscriptions are then looked up by customer only for phones that match.
const PHONE_MATCH = `
  FROM customers c
  WHERE instr(c.phone, ?2) > 0
    AND EXISTS (SELECT 1 FROM subscriptions s WHERE s.customer_id = c.id AND s.status IN (SELECT value FROM json_each(?1)))`;

const q = statements((sqlite) => ({
  page: sqlite.prepare<{ id: number }, [number | null, number | null, string, string | null, number | null, number]>(
    `SELECT DISTINCT s.customer_id AS id ${MATCH} AND (?5 IS NULL OR s.customer_id < ?5)
     ORDER BY s.customer_id DESC LIMIT ?6`,
  ),
  // Counting stops at the cap: a town's million rows cost 0.4 s to count, on every page.
  total: sqlite.prepare<{ n: number }, [number | null, number | null, string, string | null, number]>(
    `SELECT COUNT(*) AS n FROM (SELECT DISTINCT s.customer_id ${MATCH} LIMIT ?5)`,
  ),
  // One business: a person has one subscription to it, so nothing to make distinct, and without a search the count
  // reads only subscriptions_business_status_idx (no table row): exact, however many.
  totalOfBusiness: sqlite.prepare<{ n: number }, [number, string, string | null]>(
    `SELECT COUNT(*) AS n FROM subscriptions s WHERE s.business_id = ?1 AND s.status IN (SELECT value FROM json_each(?2))
       AND (?3 IS NULL OR EXISTS (SELECT 1 FROM customers c WHERE c.id = s.customer_id AND instr(c.phone, ?3) > 0))`,
  ),
  phonePage: sqlite.prepare<{ id: number }, [string, string, number | null, number]>(
    `SELECT c.id ${PHONE_MATCH} AND (?3 IS NULL OR c.id < ?3) ORDER BY c.id DESC LIMIT ?4`,
  ),
  phoneTotal: sqlite.prepare<{ n: number }, [string, string, number]>(`SELECT COUNT(*) AS n FROM (SELECT c.id ${PHONE_MATCH} LIMIT ?3)`),
}));

/** Every business's customers searched by phone: the walk over customers (PHONE_MATCH). */
const byPhone = (p: Omit<CustomerPageQuery, "beforeId" | "limit">): p is typeof p & { digits: string } =>
  p.ownerId === null && p.businessId === null && p.digits !== null;

export function customerPagesRepo(db: Db) {
  const args = (p: Omit<CustomerPageQuery, "beforeId" | "limit">) => [p.ownerId, p.businessId, JSON.stringify(p.statuses), p.digits] as const;
  function total(p: Omit<CustomerPageQuery, "beforeId" | "limit">, cap: number): CustomerTotal {
    const statuses = JSON.stringify(p.statuses);
    if (p.businessId !== null) return { total: q(db).totalOfBusiness.get(p.businessId, statuses, p.digits)?.n ?? 0, capped: false };
    const n = (byPhone(p) ? q(db).phoneTotal.get(statuses, p.digits, cap + 1) : q(db).total.get(...args(p), cap + 1))?.n ?? 0;
    return { total: Math.min(n, cap), capped: n > cap };
  }
  return {
    /** Up to `limit` customer ids newest first, and how many match on every page, counted up to `cap`. */
    page(p: CustomerPageQuery, cap: number): CustomerTotal & { ids: number[] } {
      const rows = byPhone(p) ? q(db).phonePage.all(JSON.stringify(p.statuses), p.digits, p.beforeId, p.limit) : q(db).page.all(...args(p), p.beforeId, p.limit);
      const ids = rows.map((r) => r.id);
      // A first page that holds every match is its own count (a search for one number: one walk, not two).
      if (p.beforeId === null && ids.length < p.limit) return { ids, total: ids.length, capped: false };
      return { ids, ...total(p, cap) };
    },
  };
}
