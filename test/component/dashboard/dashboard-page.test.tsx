// The business dashboard (issue 25, item 4): this month's numbers, subscribers by source and opt-outs by keyword (the
// charts' tables hold their numbers), the last broadcasts side by side linking to their results, its states; and the
// links that lead to it and to the results page (My Business, the broadcast history).
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/dashboard/dashboard-page.test.tsx
import { afterEach, beforeEach, expect, test } from "bun:test";
import { cleanup, fireEvent, waitFor, within } from "@testing-library/react";
import { DashboardPage } from "../../../web/features/dashboard/index.ts";
import { MyBusinessPage } from "../../../web/features/businesses/MyBusiness.tsx";
import { HistoryRow } from "../../../web/features/broadcast/components/HistoryRow.tsx";
import { captureConsoleErrors } from "../console-errors.ts";
import { mockApi } from "../../helpers/mock-api.ts";
import { renderAt } from "../render-at.tsx";
import { signIn } from "../sign-in.ts";
import { ROSIES_CORNER_BAKERY } from "../businesses/business-fixtures.ts";
import { broadcastSummary } from "../broadcast/broadcast-screen.tsx";
import { dashboard, days, zeroDay } from "../results/results-fixtures.ts";

const api = mockApi();
const logged = captureConsoleErrors();
const DASHBOARD = "GET /api/business/GetBusinessDashboard";
beforeEach(() => {
  signIn("owner");
  api.routes["GET /api/business/GetBusinessById"] = { body: { ...ROSIES_CORNER_BAKERY, logoImagePath: null } };
});
afterEach(() => {
  cleanup();
  signIn(null);
});

const open = () => renderAt("/businesses/dashboard/42", { "/businesses/dashboard/:id": <DashboardPage id="42" />, "/broadcasts/results/:id": <p>Results screen</p> });

/** A chart's table as { row header: cells }. */
function tableOf(figure: HTMLElement): { columns: string[]; rows: Record<string, string[]> } {
  const table = within(figure).getByRole("table");
  const columns = [...table.querySelectorAll("thead th")].map((th) => th.textContent ?? "");
  const rows = Object.fromEntries([...table.querySelectorAll("tbody tr")].map((tr) => [tr.querySelector("th")!.textContent, [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")]));
  return { columns, rows };
}

test("this month, both charts' numbers in their tables, how people left, the last broadcasts linking to their results", async () => {
  api.routes[DASHBOARD] = { body: dashboard() };
  const view = open();
  await waitFor(() => view.getByTestId("month-messages"));
  expect(api.calls.map((c) => c.url).sort()).toEqual(["/api/business/GetBusinessById?id=42", "/api/business/GetBusinessDashboard?id=42"]);
  expect(view.getByText("Rosie's Corner Bakery", { selector: ".page-subtitle" })).toBeTruthy();
  expect(view.getByTestId("month-messages").querySelector(".results-card-value")!.textContent).toBe("93");
  expect(view.getByTestId("month-segments").querySelector(".results-card-value")!.textContent).toBe("186");
  expect(view.getByTestId("month-cost").querySelector(".results-card-value")!.textContent).toBe("$1.54");

  const subs = view.getByRole("figure", { name: "Subscribers: new each day by source, and the total (last 90 days)" });
  const s = tableOf(subs);
  expect(s.columns).toEqual(["Day", "QR code", "Public list", "Keyword", "Import", "Added by owner", "Subscribers"]);
  expect(Object.keys(s.rows)).toHaveLength(90);
  expect(s.rows["Nov 18, 2026"]).toEqual(["5", "2", "1", "20", "1", "129"]);
  expect(s.rows["Nov 27, 2026"]).toEqual(["3", "0", "0", "0", "0", "130"]);
  expect(within(subs).getByRole("img").getAttribute("aria-label")).toBe(
    "Subscribers: new each day by source, and the total (last 90 days), Aug 30, 2026 to Nov 27, 2026. QR code: 8 in all, highest 5 (Nov 18, 2026); Public list: 2 in all, highest 2 (Nov 18, 2026); Keyword: 1 in all, highest 1 (Nov 18, 2026); Import: 20 in all, highest 20 (Nov 18, 2026); Added by owner: 1 in all, highest 1 (Nov 18, 2026); Subscribers: 130 on Nov 27, 2026.",
  );
  expect([...subs.querySelectorAll(".chart-legend li")].map((li) => li.textContent)).toEqual(["QR code", "Public list", "Keyword", "Import", "Added by owner", "Subscribers (right axis)"]);

  const outs = view.getByRole("figure", { name: "Opt-outs, last 90 days" });
  const o = tableOf(outs);
  expect(o.columns).toEqual(["Day", "Opt-outs", "How"]);
  expect(o.rows["Nov 23, 2026"]).toEqual(["2", "STOP 1, Subscriptions page 1"]);
  expect(o.rows["Nov 22, 2026"]).toEqual(["0", ""]);
  expect(view.getByTestId("opt-out-ways").textContent).toBe("How they left: STOP 1 · Subscriptions page 1");

  const last = view.getByRole("region", { name: "Last broadcasts" });
  const row = within(last).getByTestId("dash-broadcast-31");
  expect([...row.querySelectorAll("td")].slice(1).map((td) => td.textContent)).toEqual(["48", "40", "25", "4", "$0.80"]);
  expect(within(last).getByTestId("dash-broadcast-30").querySelectorAll("td")[5]!.textContent).toBe("$0.37");
  const link = within(row).getByRole("link");
  expect(link.getAttribute("href")).toBe("/broadcasts/results/31");
  fireEvent.click(link);
  await waitFor(() => view.getByText("Results screen"));
});

test("a new business: empty charts say so in words, no broadcasts yet links to the broadcast screen, the sandbox costs nothing", async () => {
  api.routes[DASHBOARD] = {
    body: dashboard({
      subscribersOverTime: days(90).map(zeroDay),
      optOutsOverTime: days(90).map((day) => ({ day, count: 0, byKeyword: {} })),
      lastBroadcasts: [],
      thisMonth: { messagesSent: 0, segments: 0, cost: null, currency: "USD" },
    }),
  };
  const view = open();
  await waitFor(() => view.getByTestId("month-messages"));
  expect(view.getByText("No subscribers in the last 90 days. Share your QR poster to start.")).toBeTruthy();
  expect(view.getByText("Nobody opted out in the last 90 days.")).toBeTruthy();
  expect(view.queryByTestId("opt-out-ways")).toBeNull();
  expect(view.queryByRole("button", { name: "Show as table" })).toBeNull();
  expect(view.getByTestId("month-cost").textContent).toContain("Sandbox: nothing was billed");
  expect(view.getByRole("link", { name: "Send the first one" }).getAttribute("href")).toBe("/businesses/broadcast/42");
});

test("states: loading, another owner's business answers its 404 sentence; a failed read retries", async () => {
  api.routes[DASHBOARD] = { status: 404, body: { error: "Business not found", code: "not_found" } };
  let view = open();
  expect(view.getByRole("status").textContent).toBe("Loading the dashboard...");
  expect((await waitFor(() => view.getByRole("alert"))).textContent).toBe("Business not found");
  cleanup();
  api.routes[DASHBOARD] = { status: 500, body: { error: "Internal error" } };
  view = open();
  await waitFor(() => view.getByText("Could not load the dashboard."));
  expect(logged.length).toBeGreaterThan(0);
  api.routes[DASHBOARD] = { body: dashboard() };
  fireEvent.click(view.getByRole("button", { name: "Retry" }));
  await waitFor(() => view.getByTestId("month-messages"));
});

test("My Business links each business to its dashboard; the broadcast history links each broadcast to its results", async () => {
  api.routes["GET /api/business/GetMyBusinesses"] = { body: [{ ...ROSIES_CORNER_BAKERY, logoImagePath: null }] };
  api.routes["GET /api/business/GetMySubscriberCounts"] = { body: [] };
  const view = renderAt("/my-business", { "/my-business": MyBusinessPage });
  const link = await waitFor(() => view.getByRole("link", { name: "Dashboard of Rosie's Corner Bakery" }));
  expect(link.getAttribute("href")).toBe("/businesses/dashboard/42");
  cleanup();
  const history = renderAt("/", { "/": <ul><HistoryRow b={broadcastSummary({ id: 31 })} retrying={false} onRetry={() => {}} onChanged={() => {}} /></ul> });
  expect(history.getByRole("link", { name: /^Results of the broadcast of / }).getAttribute("href")).toBe("/broadcasts/results/31");
});
