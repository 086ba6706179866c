// A delivery's own short links and unique coupon (issue 25), made when it is first sent: part of the outbox (the
// dispatcher's store, DispatchStore.personalize). One short write per tracked send; broadcasts without tracking or
// unique coupons never come here. A resend or a look-up of the same delivery finds the codes made the first time.
import type { Db } from "../../db/client.ts";
import { randomCode } from "../../lib/random-code.ts";
import { COUPON_ALPHABET, SHORT_CODE_ALPHABET, SHORT_CODE_LENGTH, UNIQUE_COUPON_LENGTH } from "../../schemas/tracked-text.ts";
import { transactionRunner } from "../transaction.ts";
import { statements } from "./statements.ts";

/** A new code meets an existing one about never (62^8 links, 31^8 coupons); a few tries are plenty before giving
 * up loudly (the delivery then waits like any failed write). */
const MAX_TRIES = 10;

const q = statements((sqlite) => ({
  links: sqlite.prepare<{ id: number }, [number]>(`SELECT id FROM broadcast_links WHERE broadcast_id = ?1 ORDER BY position`),
  codeOf: sqlite.prepare<{ code: string }, [number, number]>(`SELECT code FROM short_links WHERE delivery_id = ?1 AND link_id = ?2`),
  // OR IGNORE covers both a code taken already (tried again with another) and this delivery's link made already.
  insertLink: sqlite.prepare<unknown, [string, number, number, number]>(
    `INSERT OR IGNORE INTO short_links (code, delivery_id, link_id, broadcast_id) VALUES (?1, ?2, ?3, ?4)`,
  ),
  couponOf: sqlite.prepare<{ code: string }, [number]>(`SELECT code FROM coupons WHERE delivery_id = ?1`),
  insertCoupon: sqlite.prepare<unknown, [string, number, number, number]>(
    `INSERT OR IGNORE INTO coupons (code, delivery_id, broadcast_id, business_id, created_at)
     SELECT ?1, ?2, id, business_id, ?4 FROM broadcasts WHERE id = ?3`,
  ),
}));

/** The code `select` finds, after `insert` with fresh codes until it does (made now, or made before). */
function madeCode(insert: (code: string) => void, select: () => { code: string } | null, alphabet: string, length: number): string {
  for (let tries = 0; ; tries++) {
    const row = select();
    if (row) return row.code;
    if (tries === MAX_TRIES) throw new Error("could not make a unique code");
    insert(randomCode(alphabet, length));
  }
}

export function outboxPersonalize(db: Db) {
  const transaction = transactionRunner(db);
  return {
    /** The delivery's short link codes (one per link of its broadcast, in position order, when `links`) and unique
     * coupon code (when `coupon`): made on the first call, in one transaction; the same on every later one. */
    personalize(deliveryId: number, broadcastId: number, want: { links: boolean; coupon: boolean }, now: number): { links: string[]; coupon: string | null } {
      const s = q(db);
      return transaction(() => {
        const links = want.links
          ? s.links.all(broadcastId).map(({ id }) =>
              madeCode((code) => s.insertLink.run(code, deliveryId, id, broadcastId), () => s.codeOf.get(deliveryId, id), SHORT_CODE_ALPHABET, SHORT_CODE_LENGTH),
            )
          : [];
        const coupon = want.coupon
          ? madeCode((code) => s.insertCoupon.run(code, deliveryId, broadcastId, now), () => s.couponOf.get(deliveryId), COUPON_ALPHABET, UNIQUE_COUPON_LENGTH)
          : null;
        return { links, coupon };
      });
    },
  };
}
