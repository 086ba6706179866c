// Which due deliveries a claim takes, and in what order: fair to every shop on the install (issue 23). Texts a person
// is waiting for (opt-in confirmations, and the owner's answers in the inbox: issue 24) go first; then the businesses take turns, round-robin from the one after the
// business served last, so one shop's 2,000-person broadcast never makes the next shop wait for all of it. The turn is
// the BUSINESS's: one with two broadcasts gets one turn, like one with one.
// A claim serves at most TURNS_PER_CLAIM businesses, each a run of its next rows: every business is another part of
// the file (its rows, its index entries), so a claim spread over 100 businesses writes ~100 times the pages of one
// that takes 100 neighbours (bench/fair-claim.ts measured 25 ms against 1.4 ms). Paced, a claim is a few rows (one
// business each); unlimited, a batch of 100 is TURNS_PER_CLAIM runs, interleaved, and the next batch goes on round.
// Every step is an index seek, never a walk of the queue (test/integration/fair-claim.test.ts): the next business
// with a Queued row and its due rows (deliveries_queued_business_due_idx), the unfinished confirmations
// (broadcasts_unfinished_idx).
import type { Db } from "../../db/client.ts";
import { statements } from "./statements.ts";

/** Businesses served by one claim (see above). */
export const TURNS_PER_CLAIM = 4;

const q = statements((sqlite) => ({
  dueConfirmations: sqlite.prepare<{ id: number }, [number, number]>(
    `SELECT d.id FROM broadcasts b JOIN deliveries d ON d.broadcast_id = b.id
     WHERE b.kind IN ('confirmation', 'reply') AND b.completed_at IS NULL AND d.status = 'Queued' AND d.next_attempt_at <= ?1
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
export function fairTurns(db: Db, turnsPerClaim = TURNS_PER_CLAIM) {
  /** The business served last; the next claim starts after it. */
  let last = 0;

  /** Up to `turns` businesses with due rows, in turn order after `last` (round the circle once), with up to `run`
   * of each one's due rows. */
  function runs(now: number, turns: number, run: number): { business: number; ids: number[] }[] {
    const found: { business: number; ids: number[] }[] = [];
    let after = last;
    let wrapped = false;
    while (found.length < turns) {
      const b = q(db).nextBusiness.get(after)?.id;
      if (b === undefined || (wrapped && b > last)) {
        if (wrapped) break;
        wrapped = true;
        after = 0;
        continue;
      }
      after = b;
      const ids = q(db).dueOf.all(b, now, run).map((r) => r.id);
      if (ids.length > 0) found.push({ business: b, ids });
    }
    return found;
  }

  return {
    /** The ids of up to `limit` due Queued deliveries in the order they should go: confirmations, then the runs of
     * the businesses in turn, interleaved (a row of each, then a second of each, ...). */
    next(now: number, limit: number): number[] {
      const ids = q(db).dueConfirmations.all(now, limit).map((r) => r.id);
      const want = limit - ids.length;
      if (want <= 0) return ids;
      const turns = Math.min(turnsPerClaim, want);
      const served = runs(now, turns, Math.ceil(want / turns));
      if (served.length === 0) return ids;
      last = served[served.length - 1]!.business;
      // Fewer businesses due than turns: the ones found fill the batch with longer runs.
      let short = want - served.reduce((n, s) => n + s.ids.length, 0);
      for (let k = 0; k < served.length && short > 0; k++) {
        const s = served[k]!;
        const extra = Math.ceil(short / (served.length - k));
        const more = q(db).dueOf.all(s.business, now, s.ids.length + extra).map((r) => r.id).slice(s.ids.length);
        s.ids.push(...more);
        short -= more.length;
      }
      for (let i = 0; ids.length < limit; i++) {
        const before = ids.length;
        for (const s of served) if (i < s.ids.length && ids.length < limit) ids.push(s.ids[i]!);
        if (ids.length === before) break;
      }
      return ids;
    },
  };
}
