// The charts' data module (web/shared/components/time-chart-data.ts): rows into uPlot's arrays and the table's rows,
// the same numbers for both; the dashboard's and the results page's models built on it.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/charts/time-chart-data.test.ts
import { expect, test } from "bun:test";
import { keywordsOf, keywordTotals, optOutsChart, subscribersChart } from "../../../web/features/dashboard/dashboard-charts.ts";
import { clicksChart } from "../../../web/features/results/results-chart.ts";
import { alignedData, chartSummary, dayLabels, hasData, hourlySlots, tableColumns, tableRows } from "../../../web/shared/components/time-chart-data.ts";
import { dashboard } from "../results/results-fixtures.ts";

test("hourly slots: every hour 0..71 present, missing hours 0, hours outside the window and non-integers left out", () => {
  const slots = hourlySlots([{ hour: 0, count: 4 }, { hour: 71, count: 2 }, { hour: 72, count: 9 }, { hour: -1, count: 9 }, { hour: 1.5, count: 9 }, { hour: 3, count: 1 }, { hour: 3, count: 1 }]);
  expect(slots).toHaveLength(72);
  expect(slots[0]).toBe(4);
  expect(slots[3]).toBe(2);
  expect(slots[71]).toBe(2);
  expect(slots.reduce((a, b) => a + b, 0)).toBe(8);
});

test("the clicks chart: uPlot's x positions and values are the table's rows, in the same order", () => {
  const model = clicksChart({ clicksOverTime: [{ hour: 2, clicks: 5 }, { hour: 10, clicks: 1 }] });
  const [x, clicks] = alignedData(model);
  expect(x).toEqual(Array.from({ length: 72 }, (_, i) => i));
  expect(clicks![2]).toBe(5);
  const rows = tableRows(model);
  expect(rows).toHaveLength(72);
  expect(rows[2]).toEqual({ label: "Hour 2 to 3", cells: ["5"] });
  expect(rows.map((r) => Number(r.cells[0]))).toEqual(clicks!);
  expect(model.axisLabels[24]).toBe("24h");
  expect(hasData(model)).toBe(true);
  expect(hasData(clicksChart({ clicksOverTime: [] }))).toBe(false);
});

test("days: ISO dates read as written (no time-zone shift), anything else shown as it came", () => {
  expect(dayLabels("2026-03-01")).toEqual({ short: "Mar 1", long: "Mar 1, 2026" });
  expect(dayLabels("2026-12-31")).toEqual({ short: "Dec 31", long: "Dec 31, 2026" });
  expect(dayLabels("last week")).toEqual({ short: "last week", long: "last week" });
});

test("subscribers: five sources stacked and the running total on the right axis; the summary sums the sources and names the last total", () => {
  const model = subscribersChart(dashboard());
  expect(model.stacked).toBe(true);
  expect(tableColumns(model)).toEqual(["QR code", "Public list", "Keyword", "Import", "Added by owner", "Subscribers"]);
  expect(model.series.map((s) => [s.kind, s.axis ?? "left"])).toEqual([...Array(5).fill(["bars", "left"]), ["line", "right"]]);
  const data = alignedData(model);
  expect(data).toHaveLength(7);
  expect(data.every((col) => col.length === 90)).toBe(true);
  expect(data[6]!.at(-1)).toBe(130);
  expect(chartSummary("Subscribers", model)).toContain("Subscribers: 130 on Nov 27, 2026.");
});

test("opt-outs: the count a day, and how they came as the table's last column (most first)", () => {
  expect(keywordsOf({ STOP: 1, UNSUBSCRIBE: 3, page: 0 })).toBe("UNSUBSCRIBE 3, STOP 1");
  expect(keywordsOf({})).toBe("");
  expect(keywordTotals([{ day: "2026-11-01", count: 2, byKeyword: { STOP: 2 } }, { day: "2026-11-02", count: 2, byKeyword: { STOP: 1, "subscriptions-page": 1 } }])).toEqual([
    { way: "STOP", count: 3 },
    { way: "Subscriptions page", count: 1 },
  ]);
  expect(keywordsOf({ "twilio-21610": 1 })).toBe("Blocked at the carrier 1");
  const model = optOutsChart({ optOutsOverTime: [{ day: "2026-11-01", count: 3, byKeyword: { STOP: 2, END: 1 } }, { day: "2026-11-02", count: 0, byKeyword: {} }] });
  expect(tableColumns(model)).toEqual(["Opt-outs", "How"]);
  expect(tableRows(model)).toEqual([
    { label: "Nov 1, 2026", cells: ["3", "STOP 2, END 1"] },
    { label: "Nov 2, 2026", cells: ["0", ""] },
  ]);
  expect(chartSummary("Opt-outs", model)).toBe("Opt-outs, Nov 1, 2026 to Nov 2, 2026. Opt-outs: 3 in all, highest 3 (Nov 1, 2026).");
});

test("an empty span says so", () => {
  expect(chartSummary("Opt-outs", optOutsChart({ optOutsOverTime: [] }))).toBe("Opt-outs: no data yet.");
});
