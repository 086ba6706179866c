import { useMemo } from "react";
import { Link } from "wouter";
import type { BroadcastResults } from "../../../src/schemas/broadcast-results.ts";
import { LoadedView } from "../../shared/components/LoadFailed.tsx";
import { TimeChart } from "../../shared/components/TimeChart.tsx";
import { useLoad } from "../../shared/components/useLoad.ts";
import { formatDateTime } from "../../shared/format.ts";
import { paths } from "../../shared/paths.ts";
import { saveTextFile } from "../../shared/save-file.ts";
import { notify } from "../../shared/state/toasts.ts";
import "../../shared/styles/results.css";
import { resultsApi, resultsCsvPath } from "./api.ts";
import { ResultCards } from "./components/ResultCards.tsx";
import { ResultPeople } from "./components/ResultPeople.tsx";
import { resultCards } from "./result-numbers.ts";
import { clicksChart } from "./results-chart.ts";

export const RESULTS_LOAD_FAILED = "Could not load the broadcast's results.";
export const CSV_FAILED = "Could not download the results";

async function downloadCsv(id: number): Promise<void> {
  try {
    saveTextFile(await resultsApi.exportCsv(id), `broadcast-${id}-results.csv`);
  } catch (err) {
    notify.error(CSV_FAILED, err instanceof Error ? err.message : "");
  }
}

/** "Sent Nov 22, 2026, 3:04 PM", "Scheduled, not sent yet". */
function whenLine(r: BroadcastResults): string {
  if (!r.startedAt) return "Not sent yet: the numbers start once it goes out";
  return `Sent ${formatDateTime(r.startedAt)}${r.completedAt ? "" : " · still sending"}`;
}

/** "Offer: BREAD5 for everyone, until Nov 30, 2026" / "Offer: a code of their own for each person"; "" without one. */
export function offerLine(c: BroadcastResults["coupon"]): string {
  if (c.kind === null) return "";
  const what = c.kind === "shared" ? `${c.code ?? ""} for everyone` : "a code of their own for each person";
  const until = c.expiresAt ? `, until ${new Date(c.expiresAt).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" })}` : "";
  return `Offer: ${what}${until}`;
}

function Results({ r }: { r: BroadcastResults }) {
  const chart = useMemo(() => clicksChart(r), [r]);
  return (
    <>
      <div className="card results-message">
        <p className="results-when muted">
          {r.businessName} · {whenLine(r)}
        </p>
        <p className="results-text">{r.messageText}</p>
        {offerLine(r.coupon) && <p className="results-offer">{offerLine(r.coupon)}</p>}
        <div className="results-links">
          <a
            href={resultsCsvPath(r.broadcastId)}
            className="btn btn-secondary btn-sm"
            download
            onClick={(e) => {
              e.preventDefault();
              void downloadCsv(r.broadcastId);
            }}
          >
            Download CSV
          </a>
          <Link href={paths.broadcast(r.businessId)} className="btn btn-secondary btn-sm">
            All broadcasts
          </Link>
          <Link href={paths.businessDashboard(r.businessId)} className="btn btn-secondary btn-sm">
            Dashboard
          </Link>
        </div>
      </div>
      <ResultCards cards={resultCards(r)} />
      {r.trackLinks ? (
        <TimeChart title="Clicks in the first 72 hours" model={chart} empty="No clicks yet in the first 72 hours." testId="clicks-chart" />
      ) : (
        <p className="card muted results-no-chart">Link tracking was off for this broadcast, so there is no clicks chart.</p>
      )}
      <ResultPeople r={r} />
    </>
  );
}

/** /broadcasts/results/:id: what one broadcast brought in (its numbers, clicks over 72 hours, who responded). */
export function ResultsPage({ id = "" }: { id?: string }) {
  const { state, retry } = useLoad(id, resultsApi.get, RESULTS_LOAD_FAILED);
  return (
    <section className="container page results-page">
      <header className="page-header">
        <div>
          <h1>Broadcast Results</h1>
          <p className="page-subtitle">Who it reached, what it cost, and who clicked or came in with the offer.</p>
        </div>
      </header>
      <LoadedView state={state} retry={retry} loading="Loading the results...">
        {(r) => <Results r={r} />}
      </LoadedView>
    </section>
  );
}
