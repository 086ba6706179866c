// Which due deliveries a claim takes, and in what order: fair to every shop on the install (issue 23). Texts a person
// is waiting for (opt-in confirmations) go first; then the businesses take turns, round-robin from the one after the
// business served last, so one shop's 2,000-person broadcast never makes the next shop wait for all of it. The turn is
// the BUSINESS's: one with two broadcasts gets one turn, like one with one.
// Every step is an index seek, never a walk of the queue (test/integration/fair-claim-plans.test.ts): the next
// business with a Queued row and its due rows (deliveries_queued_business_due_idx), the unfinished confirmations
// (broadcasts_unfinished_idx), so a claim costs about the same at 1,000,000 queued rows (bench/fair-claim.ts).
import type { Db } from "../../db/client.ts";
import { statements } from "./statements.ts";

const q = statements((sqlite) => ({
  dueConfirmations: sqlite.prepare<{ id: number }, [number, number]>(
    `SELECT d.id FROM broadcasts b JOIN deliveries d ON d.broadcast_id = b.id
     WHERE b.kind = 'confirmation' AND b.completed_at IS NULL AND d.status = 'Queued' AND d.next_attempt_at <= ?1
     ORDER BY d.next_attempt_at, d.id LIMIT ?2`,
  ),
  // A business with any Queued row (due or not: a seek, where "the next with a DUE row" could step over a whole
  // night's deferred rows).
  nextBusiness: sqlite.prepare<{ id: number }, [number]>(
    `SELECT business_id AS id FROM deliveries WHERE status = 'Queued' AND business_id > ?1 ORDER BY business_id LIMIT 1`,
  ),
  // A business's due broadcast rows: not its confirmations (the first statement took those), nor a broadcast whose
  // rows are still being written (delivery-rows.ts STILL_ENQUEUING), in one look at the broadcast.
  dueOf: sqlite.prepare<{ id: number }, [number, number, number]>(
    `SELECT id FROM deliveries WHERE status = 'Queued' AND business_id = ?1 AND next_attempt_at <= ?2
       AND (SELECT b.enqueued_through IS NULL AND b.kind = 'promotion' FROM broadcasts b WHERE b.id = deliveries.broadcast_id)
     ORDER BY next_attempt_at, id LIMIT ?3`,
  ),
}));

/** The turns of one claimer (one per repo, so per process): where the round stands between claims. */
export function fairTurns(db: Db) {
  /** The business whose row went last; the next round starts after it. */
  let last = 0;

  /** Up to `want` businesses with a due row, in turn order from the one after `last` (round the circle once). */
  function businessesInTurn(now: number, want: number): number[] {
    const found: number[] = [];
    let after = last;
    let wrapped = false;
    while (found.length < want) {
      const b = q(db).nextBusiness.get(after)?.id;
      if (b === undefined || (wrapped && b > last)) {
        if (wrapped) break;
        wrapped = true;
        after = 0;
        continue;
      }
      after = b;
      if (q(db).dueOf.get(b, now, 1)) found.push(b);
    }
    return found;
  }

  return {
    /** The ids of up to `limit` due Queued deliveries in the order they should go: confirmations, then a row of each
     * business in turn, then a second row of each, and so on. */
    next(now: number, limit: number): number[] {
      const ids = q(db).dueConfirmations.all(now, limit).map((r) => r.id);
      const want = limit - ids.length;
      if (want <= 0) return ids;
      const businesses = businessesInTurn(now, want);
      if (businesses.length === 0) return ids;
      const per = Math.ceil(want / businesses.length);
      const rows = businesses.map((b) => q(db).dueOf.all(b, now, per).map((r) => r.id));
      for (let round = 0; round < per; round++) {
        for (let i = 0; i < businesses.length && ids.length < limit; i++) {
          const id = rows[i]![round];
          if (id === undefined) continue;
          ids.push(id);
          last = businesses[i]!;
        }
      }
      return ids;
    },
  };
}
