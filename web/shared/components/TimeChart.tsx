import { useEffect, useId, useRef, useState } from "react";
import "uplot/dist/uPlot.min.css";
import "../styles/charts.css";
import { alignedData, type ChartModel, chartSummary, hasData, PALETTE_FALLBACK, tableColumns, tableRows } from "./time-chart-data.ts";

/** A canvas that can be drawn on: none in a test DOM (the table and the summary still say everything). */
function canDraw(): boolean {
  try {
    return document.createElement("canvas").getContext("2d") !== null;
  } catch {
    return false;
  }
}

/**
 * The picture: uPlot, loaded on first use, drawn at the width of its box and redrawn when the box changes (a phone
 * turned, a window resized). Hidden from screen readers; its summary is the label of the figure around it.
 */
function ChartCanvas({ model }: { model: ChartModel }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || !canDraw()) return;
    let live = true;
    let chart: { resize(w: number): void; destroy(): void } | null = null;
    let observer: ResizeObserver | null = null;
    import("./draw-time-chart.ts").then(
      ({ drawTimeChart }) => {
        if (!live) return;
        chart = drawTimeChart(el, model, alignedData(model), PALETTE_FALLBACK, el.clientWidth);
        let width = el.clientWidth;
        observer = new ResizeObserver(() => {
          if (el.clientWidth > 0 && el.clientWidth !== width) chart?.resize((width = el.clientWidth));
        });
        observer.observe(el);
      },
      (err: unknown) => console.error("Error loading the chart:", err),
    );
    return () => {
      live = false;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [model]);
  return <div ref={box} className="chart-canvas" aria-hidden="true" data-testid="chart-canvas" />;
}

/** The series' names beside their colours: always visible, never only under the pointer. */
function ChartLegend({ model }: { model: ChartModel }) {
  return (
    <ul className="chart-legend" aria-hidden="true">
      {model.series.map((s) => (
        <li key={s.label}>
          <span className={`chart-swatch chart-swatch-${s.kind}`} style={{ background: `var(--${s.color}, ${PALETTE_FALLBACK[s.color]})` }} />
          {s.label}
          {s.axis === "right" ? " (right axis)" : ""}
        </li>
      ))}
    </ul>
  );
}

/** The same numbers as the chart, row by row: read by screen readers always, shown to everyone on "Show as table". */
function ChartTable({ title, model, shown }: { title: string; model: ChartModel; shown: boolean }) {
  const columns = tableColumns(model);
  return (
    <div className={shown ? "chart-table-wrap" : "sr-only"}>
      <table className="table chart-table">
        <caption className="sr-only">{title}</caption>
        <thead>
          <tr>
            <th scope="col">{model.xTitle}</th>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {tableRows(model).map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.label}</th>
              {r.cells.map((c, i) => (
                <td key={i} data-label={columns[i]}>
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A chart with its title, legend and a table of the same numbers (for screen readers always, for anyone on "Show as
 * table"). `empty`, a sentence, replaces both when every value is zero (a table of zeros would say no more).
 */
export function TimeChart({ title, model, empty, testId }: { title: string; model: ChartModel; empty: string; testId?: string }) {
  const [asTable, setAsTable] = useState(false);
  const titleId = useId();
  const drawn = hasData(model);
  return (
    <figure className="card chart" aria-labelledby={titleId} data-testid={testId}>
      <figcaption className="chart-head">
        <h2 id={titleId} className="chart-title">
          {title}
        </h2>
        {drawn && (
          <button type="button" className="btn btn-secondary btn-sm chart-toggle" aria-pressed={asTable} onClick={() => setAsTable((t) => !t)}>
            {asTable ? "Show as chart" : "Show as table"}
          </button>
        )}
      </figcaption>
      {drawn ? (
        <>
          <div role="img" aria-label={chartSummary(title, model)} className="chart-picture" hidden={asTable}>
            <ChartCanvas model={model} />
            <ChartLegend model={model} />
          </div>
          <ChartTable title={title} model={model} shown={asTable} />
        </>
      ) : (
        <p className="chart-empty muted">{empty}</p>
      )}
    </figure>
  );
}
