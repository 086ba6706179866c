// The dashboard's charts as data (see shared/components/time-chart-data.ts): new subscribers a day by how they came,
// stacked, with the running total on the right axis; opt-outs a day, with the words they used.
import type { BusinessDashboard, OptOutsOnDay } from "../../../src/schemas/business-dashboard.ts";
import type { SubscriptionSource } from "../../../src/schemas/subscriptions-types.ts";
import { type ChartModel, dayAxis, type PaletteColor } from "../../shared/components/time-chart-data.ts";

/** How each source is named and coloured, in the order the bars stack (bottom first). */
export const SOURCES: readonly { key: SubscriptionSource; label: string; color: PaletteColor }[] = [
  { key: "qr", label: "QR code", color: "brand" },
  { key: "list", label: "Public list", color: "info" },
  { key: "keyword", label: "Keyword", color: "accent" },
  { key: "import", label: "Import", color: "muted" },
  { key: "manual", label: "Added by owner", color: "success" },
];

export function subscribersChart(d: Pick<BusinessDashboard, "subscribersOverTime">): ChartModel {
  const rows = d.subscribersOverTime;
  return {
    ...dayAxis(rows.map((r) => r.day)),
    stacked: true,
    series: [
      ...SOURCES.map((s) => ({ label: s.label, values: rows.map((r) => r[s.key]), color: s.color, kind: "bars" as const, summary: "sum" as const })),
      { label: "Subscribers", values: rows.map((r) => r.total), color: "ink", kind: "line", axis: "right", summary: "last" },
    ],
  };
}

/** The ways an opt-out comes without a keyword (the server's consent event sources), as the owner reads them. */
const WAYS: Record<string, string> = {
  "subscriptions-page": "Subscriptions page",
  "twilio-21610": "Blocked at the carrier",
  "sms-reply-words": "Reply in words",
  "whatsapp-reply-words": "Reply in words (WhatsApp)",
};

/** How an opt-out came: the keyword texted (the server sends it upper case: "STOP"), or the way named in words. */
export const optOutWay = (key: string): string => WAYS[key] ?? key;

/** "STOP 2, UNSUBSCRIBE 1" (most first); "" on a day without opt-outs. */
export function keywordsOf(byKeyword: OptOutsOnDay["byKeyword"]): string {
  return Object.entries(byKeyword)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${optOutWay(k)} ${n}`)
    .join(", ");
}

/** The opt-outs of the whole span by how they came, most first. */
export function keywordTotals(rows: readonly OptOutsOnDay[]): { way: string; count: number }[] {
  const totals = new Map<string, number>();
  for (const r of rows) for (const [k, n] of Object.entries(r.byKeyword)) totals.set(k, (totals.get(k) ?? 0) + n);
  return [...totals]
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => ({ way: optOutWay(k), count: n }));
}

export function optOutsChart(d: Pick<BusinessDashboard, "optOutsOverTime">): ChartModel {
  const rows = d.optOutsOverTime;
  return {
    ...dayAxis(rows.map((r) => r.day)),
    series: [{ label: "Opt-outs", values: rows.map((r) => r.count), color: "danger", kind: "bars", summary: "sum" }],
    notes: { label: "How", values: rows.map((r) => keywordsOf(r.byKeyword)) },
  };
}
