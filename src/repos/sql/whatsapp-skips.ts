// The WhatsApp rules applied right after a broadcast's deliveries are written (in the same transaction: an immediate
// publish, or a scheduled broadcast's start). A WhatsApp delivery that cannot arrive is Skipped at once with the
// reason, so nobody is silently failed and the owner is told before sending (see whatsappAudience):
// - a promotion to a person who turned WhatsApp marketing off (Meta 131050);
// - no template and no WhatsApp message from the person in the last 24 hours: WhatsApp accepts free-form messages
//   only inside that window (Twilio 63016 otherwise);
// - a promotion with a template to a US (+1) number: since 1 April 2025 Meta delivers no marketing template to US
//   numbers (Twilio 63049: "do not retry ... use another channel such as SMS"). Sending would fail every time, so
//   they are skipped with the reason, and never texted by SMS instead (they did not choose it). Canada and the other
//   +1 countries are not paused (the rule: src/schemas/whatsapp-marketing.ts).
// Raw SQL, like the outbox it edits (deliveries.ts says why).
import type { Db } from "../../db/client.ts";
import { whatsappMarketingReachable } from "../../schemas/whatsapp-marketing.ts";
import { WHATSAPP_WINDOW_MS } from "../customer-inbound.ts";
import { statements } from "./statements.ts";

export const SKIP_MARKETING_STOPPED =
  "Not sent: the customer turned off marketing messages on WhatsApp; they get WhatsApp promotions again once they write to you there.";
export const SKIP_OUTSIDE_WINDOW =
  "Not sent: WhatsApp allows only approved templates more than 24 hours after the customer's last message, and this broadcast had no template.";
export const SKIP_US_MARKETING =
  "Not sent: WhatsApp can't deliver promotions to US (+1) numbers, and this customer chose WhatsApp, not SMS. Ask them to subscribe by SMS.";

// The last parameter: the first delivery id to look at (a chunk of a broadcast's deliveries; 0 for all of them).
const queuedWhatsApp = (fromId: string) => `broadcast_id = ?1 AND status = 'Queued' AND id >= ${fromId} AND channel = 'WhatsApp'`;

const q = statements((sqlite) => ({
  broadcast: sqlite.prepare<{ kind: string; contentSid: string | null }, [number]>(
    `SELECT kind, content_sid AS contentSid FROM broadcasts WHERE id = ?1`,
  ),
  stopped: sqlite.prepare<unknown, [number, number, string, number]>(
    `UPDATE deliveries SET status = 'Skipped', updated_at = ?2, error_message = ?3
     WHERE ${queuedWhatsApp("?4")}
       AND EXISTS (SELECT 1 FROM customers c WHERE c.id = deliveries.customer_id AND c.whatsapp_marketing_stopped_at IS NOT NULL)`,
  ),
  outsideWindow: sqlite.prepare<unknown, [number, number, string, number, number]>(
    `UPDATE deliveries SET status = 'Skipped', updated_at = ?2, error_message = ?3
     WHERE ${queuedWhatsApp("?5")}
       AND NOT EXISTS (SELECT 1 FROM customer_inbound ci WHERE ci.customer_id = deliveries.customer_id
                         AND ci.channel = 'WhatsApp' AND ci.last_inbound_at > ?4)`,
  ),
  plusOne: sqlite.prepare<{ id: number; phone: string }, [number, number]>(
    `SELECT id, to_phone AS phone FROM deliveries WHERE ${queuedWhatsApp("?2")} AND to_phone LIKE '+1%'`,
  ),
  skipOne: sqlite.prepare<unknown, [number, number, string]>(
    `UPDATE deliveries SET status = 'Skipped', updated_at = ?2, error_message = ?3 WHERE id = ?1 AND status = 'Queued'`,
  ),
}));

/** Skips the broadcast's WhatsApp deliveries (from the id `fromId` on: the chunk just written) that cannot arrive
 * (see above); answers how many. Call inside the transaction that wrote them. */
export function skipUnreachableWhatsApp(db: Db, broadcastId: number, now: number, fromId = 0): number {
  const s = q(db);
  const b = s.broadcast.get(broadcastId);
  if (!b) return 0;
  const promotion = b.kind === "promotion";
  let n = 0;
  if (promotion) n += s.stopped.run(broadcastId, now, SKIP_MARKETING_STOPPED, fromId).changes;
  if (!b.contentSid) n += s.outsideWindow.run(broadcastId, now, SKIP_OUTSIDE_WINDOW, now - WHATSAPP_WINDOW_MS, fromId).changes;
  else if (promotion) {
    for (const d of s.plusOne.all(broadcastId, fromId)) if (!whatsappMarketingReachable(d.phone)) n += s.skipOne.run(d.id, now, SKIP_US_MARKETING).changes;
  }
  return n;
}
