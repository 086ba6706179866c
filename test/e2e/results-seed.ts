// What a broadcast brought in, written straight into the shop's SQLite file (the short links, the offer and its
// redemptions are made by other parts of the app, issue 25 items 1 and 2; the results page only reads them). The
// broadcast is moved three days back so its whole 72-hour window is in the past, as a shop owner would look at it.
import { Database } from "bun:sqlite";
import { join } from "node:path";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Clicks of the seeded broadcast, in hours after it started, per clicking recipient (the first 8 deliveries). */
export const CLICK_HOURS = [[0.1, 0.3], [0.2], [0.5, 6], [1.2], [1.4], [2.5], [5.5], [26]] as const;
export const SEEDED = {
  delivered: 16,
  failed: 2,
  clicks: CLICK_HOURS.flat().length,
  uniqueClickers: CLICK_HOURS.length,
  /** Recipients 1, 3 and 12 came in with the shared code BREAD5. */
  redemptions: 3,
  optOuts: 1,
  /** Clicks per hour slot after the start. */
  hourly: CLICK_HOURS.flat().reduce<Record<number, number>>((by, h) => ({ ...by, [Math.floor(h)]: (by[Math.floor(h)] ?? 0) + 1 }), {}),
};

/** How the imported subscribers came, spread over the last four weeks (one in five by each way). */
const SOURCES = ["qr", "list", "keyword", "import", "manual"] as const;

/**
 * Seeds the business's last broadcast (sent to 20 people by the fake Twilio): 16 delivered, 2 failed, 8 people
 * clicking, 3 redeeming a shared code, 1 STOP within the 72 hours; and its subscribers' sign-up days and ways. Answers
 * the broadcast's id and one clicker's customer id.
 */
export function seedResults(dataDir: string, businessId: number, now = Date.now()): { broadcastId: number; clickerId: number } {
  const db = new Database(join(dataDir, "nearcast.db"));
  try {
    db.run("PRAGMA busy_timeout = 5000");
    return db.transaction(() => {
      const b = db.query("SELECT id, started_at AS startedAt FROM broadcasts WHERE business_id = ? ORDER BY id DESC LIMIT 1").get(businessId) as { id: number; startedAt: number };
      const shift = 3 * DAY;
      const start = b.startedAt - shift;
      db.run(
        `UPDATE broadcasts SET track_links = 1, coupon_code = 'BREAD5', coupon_expires_at = ?, created_at = created_at - ?, started_at = started_at - ?,
           completed_at = completed_at - ? WHERE id = ?`,
        [now + 7 * DAY, shift, shift, shift, b.id],
      );
      const ds = db.query("SELECT id, customer_id AS customerId FROM deliveries WHERE broadcast_id = ? ORDER BY id").all(b.id) as { id: number; customerId: number }[];
      ds.forEach((d, i) => {
        const status = i < SEEDED.delivered ? "Delivered" : i < SEEDED.delivered + SEEDED.failed ? "Failed" : "Sent";
        db.run("UPDATE deliveries SET status = ?, sent_at = ?, error_code = ? WHERE id = ?", [status, start + 1000 * i, status === "Failed" ? 30003 : null, d.id]);
      });
      const link = db.query("INSERT INTO broadcast_links (broadcast_id, position, url) VALUES (?, 0, 'https://rosas-bakery.example/rye') RETURNING id").get(b.id) as { id: number };
      CLICK_HOURS.forEach((hours, i) => {
        const d = ds[i]!;
        const code = `e2eR${String(i).padStart(3, "0")}`;
        db.run("INSERT INTO short_links (code, delivery_id, link_id, broadcast_id) VALUES (?, ?, ?, ?)", [code, d.id, link.id, b.id]);
        for (const h of hours) db.run("INSERT INTO link_clicks (code, broadcast_id, delivery_id, clicked_at) VALUES (?, ?, ?, ?)", [code, b.id, d.id, Math.round(start + h * HOUR)]);
      });
      const coupon = db.query("INSERT INTO coupons (broadcast_id, business_id, code, delivery_id) VALUES (?, ?, 'BREAD5', NULL) RETURNING id").get(b.id, businessId) as { id: number };
      for (const [i, h] of [[0, 3], [2, 8], [11, 30]] as const)
        db.run("INSERT INTO coupon_redemptions (coupon_id, broadcast_id, customer_id, redeemed_at) VALUES (?, ?, ?, ?)", [coupon.id, b.id, ds[i]!.customerId, start + h * HOUR]);
      const leaver = ds[19]!.customerId;
      db.run("INSERT INTO consent_events (customer_id, business_id, kind, source, consent_text, at) VALUES (?, NULL, 'unsubscribed', 'sms-stop', 'Replied \"STOP\"', ?)", [leaver, start + 2 * HOUR]);
      db.run("UPDATE subscriptions SET status = 'unsubscribed', unsubscribed_at = ? WHERE customer_id = ?", [start + 2 * HOUR, leaver]);
      const subs = db.query("SELECT id FROM subscriptions WHERE business_id = ? ORDER BY id").all(businessId) as { id: number }[];
      subs.forEach((s, i) => db.run("UPDATE subscriptions SET source = ?, created_at = ? WHERE id = ?", [SOURCES[i % SOURCES.length]!, now - (28 - i) * DAY - 5 * HOUR, s.id]));
      return { broadcastId: b.id, clickerId: ds[0]!.customerId };
    })();
  } finally {
    db.close();
  }
}
