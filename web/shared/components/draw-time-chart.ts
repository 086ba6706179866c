// The only importer of uPlot: TimeChart loads this module with import(), so uPlot (about 50 KB) is a chunk of its own
// that only the results page and the dashboard fetch, never the public pages or the owner's other screens. It imports
// nothing else of the app (types aside): what it shares with the main bundle would become a third file every page loads.
import uPlot from "uplot";
import type { ChartModel, PALETTE_FALLBACK } from "./time-chart-data.ts";

type Palette = typeof PALETTE_FALLBACK;

/** Below this width the chart is a phone's: shorter, with fewer ticks. */
const NARROW = 520;
export const chartHeight = (width: number) => (width < NARROW ? 220 : 280);

/** Whole numbers only on the count axes: a count of 2.5 clicks means nothing. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 25000, 50000, 100000, 250000, 500000, 1000000];

/** The stylesheet's colour (base.css's custom properties), else the fallback TimeChart passes. */
let fallback: Palette;
function paletteColor(name: keyof Palette): string {
  return getComputedStyle(document.documentElement).getPropertyValue(`--${name}`).trim() || fallback[name];
}

const fmtCount = (_: uPlot, splits: number[]) => splits.map((v) => (Number.isInteger(v) ? v.toLocaleString("en-US") : ""));

function axisStyle(width: number): Partial<uPlot.Axis> {
  return {
    stroke: paletteColor("ink-2"),
    font: `${width < NARROW ? 12 : 13}px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif`,
    grid: { stroke: paletteColor("line"), width: 1 },
    ticks: { stroke: paletteColor("line"), width: 1, size: 4 },
  };
}

/**
 * The series in the order uPlot draws them, with the values it draws: stacked bars become running sums drawn tallest
 * first, so each lower layer paints over the one above it; everything else as it is.
 */
function drawOrder(model: ChartModel, data: number[][]): { series: ChartModel["series"]; data: number[][] } {
  if (!model.stacked) return { series: model.series, data };
  const isStacked = (s: ChartModel["series"][number]) => s.kind === "bars" && s.axis !== "right";
  const stacked: { s: ChartModel["series"][number]; values: number[] }[] = [];
  let sum = (data[0] ?? []).map(() => 0);
  model.series.forEach((s, i) => {
    if (!isStacked(s)) return;
    sum = sum.map((v, j) => v + (data[i + 1]?.[j] ?? 0));
    stacked.push({ s, values: sum });
  });
  stacked.reverse();
  const rest = model.series.map((s, i) => ({ s, values: data[i + 1] ?? [] })).filter(({ s }) => !isStacked(s));
  const all = [...stacked, ...rest];
  return { series: all.map((e) => e.s), data: [data[0] ?? [], ...all.map((e) => e.values)] };
}

function options(model: ChartModel, width: number): uPlot.Options {
  const right = model.series.some((s) => s.axis === "right");
  const n = model.axisLabels.length;
  const bars = model.series.some((s) => s.kind === "bars");
  // 90 days on a phone leave about 3 pixels a day: a gap there would leave no bar.
  const gap = width / Math.max(n, 1) > 8 ? 1 : 0;
  const yAxis = (scale: string, side: 1 | 3): uPlot.Axis => ({ ...axisStyle(width), scale, side, incrs: COUNT_STEPS, values: fmtCount, size: 48, ...(side === 1 ? { grid: { show: false } } : {}) });
  return {
    width,
    height: chartHeight(width),
    // Nothing lives only under the pointer: the legend and the table beside the chart carry every name and number.
    legend: { show: false },
    cursor: { show: false, drag: { x: false, y: false } },
    scales: {
      // Bars sit on their slot, with half a slot of room at each end.
      x: { time: false, range: bars ? [-0.5, Math.max(n - 0.5, 0.5)] : [0, Math.max(n - 1, 1)] },
      y: { range: (_u, _min, max) => [0, Math.max(max, 1)] },
      ...(right ? { y2: { range: (_u: uPlot, _min: number, max: number) => [0, Math.max(max, 1)] as uPlot.Range.MinMax } } : {}),
    },
    axes: [
      { ...axisStyle(width), size: 32, incrs: model.xSteps, space: width < NARROW ? 44 : 56, values: (_u, splits) => splits.map((i) => model.axisLabels[i] ?? "") },
      yAxis("y", 3),
      ...(right ? [yAxis("y2", 1)] : []),
    ],
    series: [
      {},
      ...model.series.map((s): uPlot.Series => {
        const color = paletteColor(s.color);
        return s.kind === "bars"
          ? { label: s.label, scale: "y", stroke: color, fill: color, width: 0, paths: uPlot.paths.bars?.({ size: [0.7, 40], gap }), points: { show: false } }
          : { label: s.label, scale: s.axis === "right" ? "y2" : "y", stroke: color, width: 2, points: { show: n <= 31, size: 5, fill: color } };
      }),
    ],
  };
}

export interface DrawnChart {
  resize(width: number): void;
  destroy(): void;
}

/** Draws `model` (its uPlot `data`, time-chart-data's alignedData) into `root` at `width` CSS pixels; the chart
 * follows resize() and is removed by destroy(). */
export function drawTimeChart(root: HTMLElement, model: ChartModel, data: number[][], palette: Palette, width: number): DrawnChart {
  fallback = palette;
  const drawn = drawOrder(model, data);
  const make = (w: number) => new uPlot(options({ ...model, series: drawn.series }, w), drawn.data as uPlot.AlignedData, root);
  let plot = make(width);
  let current = width;
  return {
    resize(w) {
      // Across the phone's width the fonts, ticks and bar gaps change: drawn anew; otherwise only resized.
      if (w < NARROW !== current < NARROW) {
        plot.destroy();
        plot = make(w);
      } else plot.setSize({ width: w, height: chartHeight(w) });
      current = w;
    },
    destroy: () => plot.destroy(),
  };
}
