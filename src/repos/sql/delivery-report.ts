// What became of each recipient of a broadcast, for the owner's report (CSV) and the CLI's reasons: the deliveries
// that did not arrive, grouped by why (deliveries_broadcast_status_idx), and every delivery in order.
import type { Db } from "../../db/client.ts";
import type { DeliveryStatus } from "./delivery-rows.ts";
import { statements } from "./statements.ts";

export interface NotSentGroup {
  status: "Failed" | "Skipped" | "Cancelled";
  errorCode: number | null;
  errorMessage: string | null;
  n: number;
}

export interface ReportRow {
  toPhone: string;
  channel: string;
  status: DeliveryStatus;
  errorCode: number | null;
  errorMessage: string | null;
  sentAt: number | null;
}

/** A report row with what the recipient did after (issue 25): their clicks, their unique code, their redemption. */
export interface ResultsRow extends ReportRow {
  clicks: number;
  firstClickAt: number | null;
  couponCode: string | null;
  redeemedAt: number | null;
}

const REPORT_COLUMNS = "to_phone AS toPhone, channel, status, error_code AS errorCode, error_message AS errorMessage, sent_at AS sentAt";

const q = statements((sqlite) => ({
  notSent: sqlite.prepare<NotSentGroup, [number]>(
    `SELECT status, error_code AS errorCode, error_message AS errorMessage, count(*) AS n FROM deliveries
     WHERE broadcast_id = ?1 AND status IN ('Failed', 'Skipped', 'Cancelled')
     GROUP BY status, error_code, error_message ORDER BY n DESC, status`,
  ),
  rows: sqlite.prepare<ReportRow, [number]>(
    `SELECT ${REPORT_COLUMNS} FROM deliveries WHERE broadcast_id = ?1 ORDER BY id`,
  ),
  // Each a seek per recipient: link_clicks_delivery_idx, coupons_delivery_unique, coupon_redemptions_customer_idx
  // (the unary + keeps SQLite from walking all the broadcast's redemptions for each recipient instead).
  resultRows: sqlite.prepare<ResultsRow, [number]>(
    `SELECT ${REPORT_COLUMNS},
       (SELECT count(*) FROM link_clicks c WHERE c.delivery_id = d.id) AS clicks,
       (SELECT min(c.clicked_at) FROM link_clicks c WHERE c.delivery_id = d.id) AS firstClickAt,
       (SELECT k.code FROM coupons k WHERE k.delivery_id = d.id) AS couponCode,
       (SELECT min(r.redeemed_at) FROM coupon_redemptions r WHERE r.customer_id = d.customer_id AND +r.broadcast_id = d.broadcast_id) AS redeemedAt
     FROM deliveries d WHERE d.broadcast_id = ?1 ORDER BY d.id`,
  ),
}));

export function deliveryReport(db: Db) {
  return {
    /** The broadcast's deliveries that failed, were skipped or cancelled, by reason, most common first. */
    notSentByReason(broadcastId: number): NotSentGroup[] {
      return q(db).notSent.all(broadcastId);
    },
    /** Every delivery of the broadcast, in the order they were written. */
    reportRows(broadcastId: number): ReportRow[] {
      return q(db).rows.all(broadcastId);
    },
    /** Every delivery of the broadcast with its clicks, unique coupon and redemption, in the order they were written. */
    resultRows(broadcastId: number): ResultsRow[] {
      return q(db).resultRows.all(broadcastId);
    },
  };
}
