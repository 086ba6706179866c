// The big database of the results and start-up benches: on a shop seeded with its subscribers (test/helpers/seed-shop.ts),
// `broadcasts` broadcasts of every subscriber (20 x 50,000 = 1,000,000 deliveries), clicks and redemptions on the last
// ones and opt-outs, written in plain SQL the way the app would leave them. Answers the newest broadcast's id.
import type { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { join } from "node:path";

const DAY = 86_400_000;

/** 1,000,000 deliveries the way the app would leave them, in plain SQL (the triggers keep broadcast_counts). */
export function seedResults(sqlite: Database, businessId: number, { subscribers: SUBSCRIBERS, broadcasts: BROADCASTS }: { subscribers: number; broadcasts: number }): number {
  const now = Date.now();
  sqlite.run(`UPDATE subscriptions SET created_at = ?1 - (id % 120) * ${DAY} - (id % 997) * 60000,
    source = CASE id % 5 WHEN 0 THEN 'qr' WHEN 1 THEN 'list' WHEN 2 THEN 'keyword' WHEN 3 THEN 'import' ELSE 'manual' END`, [now]);
  let last = 0;
  for (let i = 0; i < BROADCASTS; i++) {
    const started = now - (BROADCASTS - i) * 3 * DAY;
    const tracked = i >= BROADCASTS - 6;
    sqlite.transaction(() => {
      const { id } = sqlite
        .query(`INSERT INTO broadcasts (business_id, kind, message_text, total, created_at, started_at, completed_at, track_links, unique_coupons)
                VALUES (?1, 'promotion', ?2, ?3, ?4, ?4, ?5, ?6, ?6) RETURNING id`)
        .get(businessId, `Deal ${i}: two for one at https://shop.example/deals/${i} with code {code}`, SUBSCRIBERS, started, started + 3_600_000, tracked ? 1 : 0) as { id: number };
      sqlite.run(
        `INSERT INTO deliveries (broadcast_id, customer_id, business_id, channel, to_phone, status, next_attempt_at, sent_at, attempts)
         SELECT ?1, s.customer_id, s.business_id, s.contact_preference, c.phone,
           CASE WHEN s.id % 50 = 0 THEN 'Failed' WHEN s.id % 50 = 1 THEN 'Skipped' WHEN s.id % 20 = 2 THEN 'Sent' ELSE 'Delivered' END,
           ?2, ?2, 1
         FROM subscriptions s JOIN customers c ON c.id = s.customer_id WHERE s.business_id = ?3`,
        [id, started, businessId],
      );
      if (tracked) {
        const link = sqlite.query(`INSERT INTO broadcast_links (broadcast_id, position, url) VALUES (?1, 0, ?2) RETURNING id`).get(id, `https://shop.example/deals/${i}`) as { id: number };
        // One in 8 recipients follows the link (one in 24 twice) within 72 hours; one in 30 redeems a unique code.
        sqlite.run(`INSERT INTO short_links (code, delivery_id, link_id, broadcast_id) SELECT 'L' || id, id, ?2, ?1 FROM deliveries WHERE broadcast_id = ?1 AND id % 8 = 0`, [id, link.id]);
        sqlite.run(`INSERT INTO link_clicks (code, broadcast_id, delivery_id, clicked_at) SELECT code, broadcast_id, delivery_id, ?2 + (delivery_id % 259200) * 1000 FROM short_links WHERE broadcast_id = ?1`, [id, started]);
        sqlite.run(`INSERT INTO link_clicks (code, broadcast_id, delivery_id, clicked_at) SELECT code, broadcast_id, delivery_id, ?2 + (delivery_id % 7200) * 1000 FROM short_links WHERE broadcast_id = ?1 AND delivery_id % 3 = 0`, [id, started]);
        sqlite.run(`INSERT INTO coupons (broadcast_id, business_id, code, delivery_id) SELECT ?1, ?2, 'C' || id, id FROM deliveries WHERE broadcast_id = ?1`, [id, businessId]);
        sqlite.run(`INSERT INTO coupon_redemptions (coupon_id, broadcast_id, customer_id, redeemed_at)
          SELECT k.id, ?1, d.customer_id, ?2 + (d.id % 86400) * 1000 FROM coupons k JOIN deliveries d ON d.id = k.delivery_id WHERE k.broadcast_id = ?1 AND d.id % 30 = 0`, [id, started]);
      }
      last = id;
    })();
  }
  // Opt-outs: one in 100 subscribers over the last 90 days, half a STOP (all businesses), half this business only.
  sqlite.run(`INSERT INTO consent_events (customer_id, business_id, kind, source, consent_text, at)
    SELECT customer_id, CASE WHEN id % 2 = 0 THEN NULL ELSE business_id END, 'unsubscribed', CASE WHEN id % 2 = 0 THEN 'sms-stop' ELSE 'subscriptions-page' END,
      CASE WHEN id % 2 = 0 THEN 'Replied "STOP"' END, ?1 - (id % 90) * ${DAY} FROM subscriptions WHERE id % 100 = 0`, [now]);
  return last;
}

/** 50,000 subscribers and 1,000,000 deliveries (bench/lib/seed-results.ts) in `dir`, written from source. */
export async function seedBigDatabase(dir: string): Promise<{ seconds: number; mb: number }> {
  const t0 = performance.now();
  const { seedShop } = await import("../../test/helpers/seed-shop.ts");
  await seedShop(dir, { ownerEmail: "big@example.com", businessName: "Busy Bakery", subscribers: 50_000, firstNumber: 5_000_000 }, (ctx, businessId) => {
    seedResults(ctx.db.$client, businessId, { subscribers: 50_000, broadcasts: 20 });
    ctx.db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  });
  return { seconds: (performance.now() - t0) / 1000, mb: statSync(join(dir, "nearcast.db")).size / 2 ** 20 };
}
