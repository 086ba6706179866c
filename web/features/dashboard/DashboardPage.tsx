import { useMemo } from "react";
import { Link } from "wouter";
import type { BusinessDashboard } from "../../../src/schemas/business-dashboard.ts";
import { DASHBOARD_DAYS } from "../../../src/schemas/business-dashboard.ts";
import { businessReadApi } from "../../shared/api/businesses.ts";
import { LoadedView } from "../../shared/components/LoadFailed.tsx";
import { TimeChart } from "../../shared/components/TimeChart.tsx";
import { useLoad } from "../../shared/components/useLoad.ts";
import { paths } from "../../shared/paths.ts";
import "../../shared/styles/results.css";
import { dashboardApi } from "./api.ts";
import { LastBroadcasts } from "./components/LastBroadcasts.tsx";
import { ThisMonth } from "./components/ThisMonth.tsx";
import { keywordTotals, optOutsChart, subscribersChart } from "./dashboard-charts.ts";

export const DASHBOARD_LOAD_FAILED = "Could not load the dashboard.";

/** The dashboard and the business's name (for the heading), read together. */
const loadDashboard = async (id: string) => {
  const [dashboard, business] = await Promise.all([dashboardApi.get(id), businessReadApi.get(id)]);
  return { dashboard, name: business.name };
};

function OptOutWays({ d }: { d: BusinessDashboard }) {
  const ways = keywordTotals(d.optOutsOverTime);
  if (ways.length === 0) return null;
  return (
    <p className="dash-ways" data-testid="opt-out-ways">
      <span className="muted">How they left: </span>
      {ways.map((w) => `${w.way} ${w.count.toLocaleString("en-US")}`).join(" · ")}
    </p>
  );
}

function Dashboard({ d }: { d: BusinessDashboard }) {
  const subscribers = useMemo(() => subscribersChart(d), [d]);
  const optOuts = useMemo(() => optOutsChart(d), [d]);
  return (
    <>
      <ThisMonth m={d.thisMonth} />
      <TimeChart
        title={`Subscribers: new each day by source, and the total (last ${DASHBOARD_DAYS} days)`}
        model={subscribers}
        empty={`No subscribers in the last ${DASHBOARD_DAYS} days. Share your QR poster to start.`}
        testId="subscribers-chart"
      />
      <div className="dash-optouts">
        <TimeChart title={`Opt-outs, last ${DASHBOARD_DAYS} days`} model={optOuts} empty={`Nobody opted out in the last ${DASHBOARD_DAYS} days.`} testId="opt-outs-chart" />
        <OptOutWays d={d} />
      </div>
      <LastBroadcasts list={d.lastBroadcasts} businessId={d.businessId} />
      <p className="muted dash-zone">Days are counted in {d.timeZone}.</p>
    </>
  );
}

/** /businesses/dashboard/:id: a business at a glance (subscribers, opt-outs, the last broadcasts, this month). */
export function DashboardPage({ id = "" }: { id?: string }) {
  const { state, retry } = useLoad(id, loadDashboard, DASHBOARD_LOAD_FAILED);
  return (
    <section className="container page results-page dash-page">
      <header className="page-header">
        <div>
          <h1>Dashboard</h1>
          <p className="page-subtitle">{state.kind === "ready" ? state.value.name : "Your subscribers and what your broadcasts brought in."}</p>
        </div>
        <div className="results-links">
          <Link href={paths.broadcast(id)} className="btn btn-primary btn-sm">
            Broadcast
          </Link>
          <Link href={paths.myBusiness} className="btn btn-secondary btn-sm">
            My Business
          </Link>
        </div>
      </header>
      <LoadedView state={state} retry={retry} loading="Loading the dashboard...">
        {(v) => <Dashboard d={v.dashboard} />}
      </LoadedView>
    </section>
  );
}
