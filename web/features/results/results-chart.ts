import type { BroadcastResults } from "../../../src/schemas/broadcast-results.ts";
import { RESULTS_WINDOW_HOURS } from "../../../src/schemas/broadcast-results.ts";
import { type ChartModel, hourAxis, hourlySlots } from "../../shared/components/time-chart-data.ts";

/** Clicks per hour over the first 72 hours after the broadcast started, as bars. */
export function clicksChart(r: Pick<BroadcastResults, "clicksOverTime">): ChartModel {
  const rows = r.clicksOverTime.map((c) => ({ hour: c.hour, count: c.clicks }));
  return {
    ...hourAxis(RESULTS_WINDOW_HOURS),
    series: [{ label: "Clicks", values: hourlySlots(rows, RESULTS_WINDOW_HOURS), color: "brand", kind: "bars", summary: "sum" }],
  };
}
