// What became of a broadcast's recipients, for the owner: why the ones that did not arrive did not (the CLI's status
// lists it), and the whole report as CSV (GET BroadcastReport, `nearcast broadcast report`), one line per recipient
// with Skipped, Cancelled and Failed each named apart.
import { toCsv } from "../../lib/csv.ts";
import type { ReportRow } from "../../repos/sql/delivery-report.ts";
import type { Principal } from "../principal.ts";
import { NOT_SENT_UNSUBSCRIBED } from "../opt-outs.ts";
import { describeProviderError } from "../status-callbacks.ts";
import type { BroadcastParts } from "./parts.ts";

export const REPORT_CSV_HEADER = ["phone", "channel", "status", "reason", "sent_at"] as const;

export interface NotSentReason {
  status: "Failed" | "Skipped" | "Cancelled";
  reason: string;
  count: number;
}

/** The reason as the owner reads it: the stored sentence, else Twilio's code in words. */
function reasonOf(status: string, code: number | null, message: string | null): string {
  if (status === "Skipped") return message || NOT_SENT_UNSUBSCRIBED;
  return describeProviderError(code, message) ?? (status === "Failed" ? "Not delivered" : "");
}

/** The report's cells of one delivery (REPORT_CSV_HEADER); the results CSV goes on from them. */
export function reportLine(d: ReportRow): string[] {
  return [
    d.toPhone,
    d.channel,
    d.status,
    d.status === "Delivered" || d.status === "Sent" ? "" : reasonOf(d.status, d.errorCode, d.errorMessage),
    d.sentAt === null ? "" : new Date(d.sentAt).toISOString(),
  ];
}

export function deliveryReports({ repos, access }: BroadcastParts) {
  return {
    /** The deliveries that failed, were skipped or cancelled, by reason (most common first). 404 for another owner's. */
    notSentReasons(actor: Principal, broadcastId: number): NotSentReason[] {
      const row = access.broadcastOf(actor, broadcastId);
      const merged = new Map<string, NotSentReason>();
      for (const g of repos.deliveries.notSentByReason(row.id)) {
        const reason = reasonOf(g.status, g.errorCode, g.errorMessage);
        const key = `${g.status}\n${reason}`;
        const seen = merged.get(key);
        if (seen) seen.count += g.n;
        else merged.set(key, { status: g.status, reason, count: g.n });
      }
      return [...merged.values()].sort((a, b) => b.count - a.count);
    },

    /** GET BroadcastReport: one CSV line per recipient. 404 for another owner's broadcast. */
    reportCsv(actor: Principal, broadcastId: number): { broadcastId: number; csv: string } {
      const row = access.broadcastOf(actor, broadcastId);
      const lines = repos.deliveries.reportRows(row.id).map(reportLine);
      return { broadcastId: row.id, csv: toCsv(REPORT_CSV_HEADER, lines) };
    },
  };
}
