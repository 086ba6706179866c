// What a chart shows, as plain data: the x positions with their labels, and the series over them. TimeChart draws it
// with uPlot and writes the same numbers as a table, so the two never disagree; nothing here touches the DOM.

/** A colour of the app's palette (the custom properties of styles/base.css, without the leading "--"). */
export type PaletteColor = "brand" | "accent" | "info" | "danger" | "success" | "warning" | "muted" | "ink";

/** Hex values of the palette, for when the stylesheet's custom properties cannot be read (same as base.css). */
export const PALETTE_FALLBACK: Record<PaletteColor | "line" | "ink-2", string> = {
  brand: "#0f766e",
  accent: "#f59e0b",
  info: "#2563eb",
  danger: "#dc2626",
  success: "#16a34a",
  warning: "#ca8a04",
  muted: "#64748b",
  ink: "#0f172a",
  "ink-2": "#334155",
  line: "#e2e8f0",
};

export interface ChartSeries {
  label: string;
  /** One number per x position. */
  values: number[];
  color: PaletteColor;
  /** bars: counts per slot (clicks an hour); line: a level over time (subscribers). */
  kind: "bars" | "line";
  /** The right axis: a series on another scale than the others (the running total beside daily counts). */
  axis?: "right";
  /** How the summary speaks of it: "sum" adds the slots up (clicks), "last" names the level at the end (a total). */
  summary: "sum" | "last";
}

export interface ChartModel {
  /** The x axis's name ("Hours after sending"). */
  xTitle: string;
  /** A short tick text per x position ("6h", "Nov 3"). */
  axisLabels: string[];
  /** The table's row header per x position ("Hour 6 to 7", "Nov 3, 2026"). */
  rowLabels: string[];
  /** The steps (in x positions) between labelled ticks that uPlot may pick from. */
  xSteps: number[];
  series: ChartSeries[];
  /** The bar series on the left axis stand on each other (the day's sources adding up to its new subscribers). */
  stacked?: boolean;
  /** Extra columns the table has beside the series (the keywords of each day's opt-outs). */
  notes?: { label: string; values: string[] };
}

/** The first 72 hours after a broadcast is sent. */
export const RESULT_HOURS = 72;

/** Counts per hour after sending, one slot per hour 0..hours-1 (hours with no row count 0; rows outside are left out). */
export function hourlySlots(rows: readonly { hour: number; count: number }[], hours = RESULT_HOURS): number[] {
  const slots = new Array<number>(hours).fill(0);
  for (const r of rows) if (Number.isInteger(r.hour) && r.hour >= 0 && r.hour < hours) slots[r.hour] = (slots[r.hour] ?? 0) + r.count;
  return slots;
}

/** The x positions of an hourly chart: "0h".."71h" on the axis, "Hour 0 to 1" in the table. */
export function hourAxis(hours = RESULT_HOURS): Pick<ChartModel, "xTitle" | "axisLabels" | "rowLabels" | "xSteps"> {
  const idx = Array.from({ length: hours }, (_, h) => h);
  return {
    xTitle: "Hours after sending",
    axisLabels: idx.map((h) => `${h}h`),
    rowLabels: idx.map((h) => `Hour ${h} to ${h + 1}`),
    xSteps: [1, 2, 3, 6, 12, 24],
  };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-11-03" as "Nov 3" (axis) and "Nov 3, 2026" (table); a day the server wrote otherwise is shown as it came. */
export function dayLabels(day: string): { short: string; long: string } {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  if (!m || !month) return { short: day, long: day };
  return { short: `${month} ${Number(m[3])}`, long: `${month} ${Number(m[3])}, ${m[1]}` };
}

/** The x positions of a daily chart, one per row in the order given. */
export function dayAxis(days: readonly string[]): Pick<ChartModel, "xTitle" | "axisLabels" | "rowLabels" | "xSteps"> {
  const labels = days.map(dayLabels);
  return { xTitle: "Day", axisLabels: labels.map((l) => l.short), rowLabels: labels.map((l) => l.long), xSteps: [1, 2, 7, 14, 30, 61, 91, 182, 365] };
}

/** uPlot's data: the x positions (0..n-1), then each series' values. */
export function alignedData(model: ChartModel): number[][] {
  return [model.axisLabels.map((_, i) => i), ...model.series.map((s) => s.values)];
}

/** The table's rows: a header and one cell per series (then the note, if any), numbers as the page writes them. */
export function tableRows(model: ChartModel): { label: string; cells: string[] }[] {
  return model.rowLabels.map((label, i) => ({
    label,
    cells: [...model.series.map((s) => (s.values[i] ?? 0).toLocaleString("en-US")), ...(model.notes ? [model.notes.values[i] ?? ""] : [])],
  }));
}

/** The table's column headers after the row header. */
export const tableColumns = (model: ChartModel): string[] => [...model.series.map((s) => s.label), ...(model.notes ? [model.notes.label] : [])];

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** One series in words: "Clicks: 42 in all, highest 12 (Hour 1 to 2)" or "Total: 340 on Nov 27, 2026". */
function seriesSentence(model: ChartModel, s: ChartSeries): string {
  if (s.summary === "last") {
    const last = s.values.length - 1;
    return last < 0 ? `${s.label}: none` : `${s.label}: ${(s.values[last] ?? 0).toLocaleString("en-US")} on ${model.rowLabels[last]}`;
  }
  const total = sum(s.values);
  if (total === 0) return `${s.label}: none`;
  const peak = s.values.reduce((best, v, i) => (v > (s.values[best] ?? 0) ? i : best), 0);
  return `${s.label}: ${total.toLocaleString("en-US")} in all, highest ${(s.values[peak] ?? 0).toLocaleString("en-US")} (${model.rowLabels[peak]})`;
}

/** What the chart shows, in a sentence or two: the label a screen reader reads instead of the picture. */
export function chartSummary(title: string, model: ChartModel): string {
  if (model.rowLabels.length === 0) return `${title}: no data yet.`;
  const span = `${model.rowLabels[0]} to ${model.rowLabels.at(-1)}`;
  return `${title}, ${span}. ${model.series.map((s) => seriesSentence(model, s)).join("; ")}.`;
}

/** Whether there is anything to draw: every value zero draws an empty frame, which the screens replace by a sentence. */
export const hasData = (model: ChartModel): boolean => model.series.some((s) => s.values.some((v) => v !== 0));
