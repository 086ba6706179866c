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

const q = statements((sqlite) => ({
  notSent: sqlite.prepare<NotSentGroup, [number]>(
    `SELECT status, error_code AS errorCode, error_message AS errorMessage, count(*) AS n FROM deliveries
     WHERE broadcast_id = ?1 AND status IN ('Failed', 'Skipped', 'Cancelled')
     GROUP BY status, error_code, error_message ORDER BY n DESC, status`,
  ),
  rows: sqlite.prepare<ReportRow, [number]>(
    `SELECT to_phone AS toPhone, channel, status, error_code AS errorCode, error_message AS errorMessage, sent_at AS sentAt
     FROM deliveries WHERE broadcast_id = ?1 ORDER BY id`,
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
  };
}
