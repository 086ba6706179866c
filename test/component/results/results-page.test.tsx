// The results page of a broadcast (issue 25, item 3): its numbers and rates, the cards that say what is true instead
// of 0%, the masked list of who responded, the chart's table alternative, Download CSV, its states.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/results/results-page.test.tsx
import { afterEach, beforeEach, expect, test } from "bun:test";
import { cleanup, fireEvent, waitFor, within } from "@testing-library/react";
import { ResultsPage } from "../../../web/features/results/index.ts";
import { Toasts } from "../../../web/shared/components/Toasts.tsx";
import { toasts } from "../../../web/shared/state/toasts.ts";
import { captureConsoleErrors } from "../console-errors.ts";
import { mockApi } from "../../helpers/mock-api.ts";
import { renderAt } from "../render-at.tsx";
import { signIn } from "../sign-in.ts";
import { CLICKS, results } from "./results-fixtures.ts";

const api = mockApi();
const logged = captureConsoleErrors();
const RESULTS = "GET /api/business/GetBroadcastResults";
beforeEach(() => signIn("owner"));
afterEach(() => {
  cleanup();
  signIn(null);
  toasts.value = [];
});

const open = () =>
  renderAt(
    "/broadcasts/results/31",
    { "/broadcasts/results/:id": <ResultsPage id="31" />, "/customers/edit/:id": <p>Customer screen</p> },
    <Toasts />,
  );

const card = (view: ReturnType<typeof open>, key: string) => {
  const el = view.getByTestId(`card-${key}`);
  return { value: el.querySelector(".results-card-value")!.textContent, note: el.querySelector(".results-card-note")?.textContent ?? null };
};

test("the headline numbers, rates and cost, read from GetBroadcastResults?id=31", async () => {
  api.routes[RESULTS] = { body: results() };
  const view = open();
  await waitFor(() => view.getByTestId("card-recipients"));
  expect(api.calls.map((c) => c.url)).toEqual(["/api/business/GetBroadcastResults?id=31"]);
  expect(card(view, "recipients").value).toBe("48");
  expect(card(view, "delivered")).toEqual({ value: "40", note: "83.3% of recipients" });
  expect(card(view, "failed")).toEqual({ value: "3", note: "6.3% of recipients" });
  expect(card(view, "skipped").value).toBe("1");
  expect(card(view, "optOuts")).toEqual({ value: "2", note: "Unsubscribed after this broadcast" });
  expect(card(view, "cost")).toEqual({ value: "$0.80", note: "2 segments per SMS; your Twilio bill may differ" });
  expect(card(view, "clicks").value).toBe("25");
  expect(card(view, "uniqueClickers")).toEqual({ value: "11", note: "25% click rate" });
  expect(card(view, "redemptions")).toEqual({ value: "4", note: "6.8% redemption rate (3 people)" });
  expect(view.getByText("Two loaves for one today: https://rosies.example/deal")).toBeTruthy();
  expect(view.container.querySelector(".results-offer")!.textContent).toMatch(/^Offer: a code of their own for each person, until (Nov 30|Dec 1), 2026$/);
  expect(view.getByRole("link", { name: "All broadcasts" }).getAttribute("href")).toBe("/businesses/broadcast/42");
  expect(view.getByRole("link", { name: "Dashboard" }).getAttribute("href")).toBe("/businesses/dashboard/42");
});

test("tracking off and no offer: the cards say so instead of 0%, no clicks chart, nobody's response recorded", async () => {
  api.routes[RESULTS] = { body: results({ trackLinks: false, coupon: { kind: null }, clicks: 0, uniqueClickers: 0, clickRate: 0, redemptions: 0, redeemers: 0, redemptionRate: 0, people: [] }) };
  const view = open();
  await waitFor(() => view.getByTestId("card-clicks"));
  expect(card(view, "clicks").value).toBe("Link tracking was off");
  expect(card(view, "uniqueClickers").value).toBe("Link tracking was off");
  expect(card(view, "redemptions")).toEqual({ value: "No offer", note: "This broadcast carried no coupon" });
  expect(view.container.querySelector(".results-cards")!.textContent).not.toContain("0%");
  expect(view.queryByTestId("clicks-chart")).toBeNull();
  expect(view.container.querySelector(".results-offer")).toBeNull();
  expect(view.getByText("Link tracking was off for this broadcast, so there is no clicks chart.")).toBeTruthy();
  expect(view.getByText("Link tracking was off and there was no offer, so nobody's response was recorded.")).toBeTruthy();
});

test("nobody reached yet (all queued): rates say so, not 0%; the sandbox's cost says nothing was billed", async () => {
  api.routes[RESULTS] = {
    body: results({ completedAt: null, queued: 48, delivered: 0, failed: 0, skipped: 0, sent: 0, clickRate: null, redemptionRate: null, clicks: 0, uniqueClickers: 0, redemptions: 0, redeemers: 0, cost: null, people: [], clicksOverTime: [] }),
  };
  const view = open();
  await waitFor(() => view.getByTestId("card-recipients"));
  expect(card(view, "recipients")).toEqual({ value: "48", note: "48 still to send" });
  expect(card(view, "uniqueClickers").note).toBe("Nobody reached yet");
  expect(card(view, "redemptions").note).toBe("Nobody reached yet");
  expect(card(view, "cost")).toEqual({ value: "No cost", note: "Sandbox: nothing was billed" });
  expect(view.getByText(/still sending/)).toBeTruthy();
  // An empty chart is a sentence, not an empty frame; an empty list says who has not responded.
  expect(within(view.getByTestId("clicks-chart")).getByText("No clicks yet in the first 72 hours.")).toBeTruthy();
  expect(view.queryByRole("table")).toBeNull();
  expect(view.getByText("Nobody has clicked or redeemed yet.")).toBeTruthy();
});

test("who responded: last 4 digits only, each row opening the customer, where the full number is", async () => {
  api.routes[RESULTS] = { body: results({ peopleTruncated: true }) };
  const view = open();
  const list = await waitFor(() => view.getByRole("region", { name: "Who responded" }));
  const rows = within(list).getAllByRole("row").slice(1);
  expect(rows.map((r) => r.querySelector("td")!.textContent)).toEqual(["•••• 0107", "•••• 0108", "•••• 0109"]);
  expect(within(rows[0]!).getAllByRole("cell").map((c) => c.textContent)[1]).toBe("3");
  expect(rows[1]!.querySelectorAll("td")[3]!.textContent).toBe("—");
  expect(rows[2]!.querySelectorAll("td")[2]!.textContent).toBe("—");
  expect(view.container.textContent).not.toMatch(/\+1\d{10}/);
  expect(within(list).getByText("The newest 500 are listed; Download CSV has everyone.")).toBeTruthy();
  const link = within(list).getByRole("link", { name: "Open customer •••• 0108" });
  expect(link.getAttribute("href")).toBe("/customers/edit/8");
  fireEvent.click(link);
  await waitFor(() => view.getByText("Customer screen"));
});

test("the chart: a summary for screen readers, a table with every hour's clicks, and 'Show as table' shows it", async () => {
  api.routes[RESULTS] = { body: results() };
  const view = open();
  const figure = await waitFor(() => view.getByRole("figure", { name: "Clicks in the first 72 hours" }));
  const picture = within(figure).getByRole("img");
  expect(picture.getAttribute("aria-label")).toBe("Clicks in the first 72 hours, Hour 0 to 1 to Hour 71 to 72. Clicks: 25 in all, highest 12 (Hour 0 to 1).");
  expect(within(figure).getByTestId("chart-canvas").getAttribute("aria-hidden")).toBe("true");
  const table = within(figure).getByRole("table", { name: "Clicks in the first 72 hours" });
  const rows = within(table).getAllByRole("row").slice(1);
  expect(rows).toHaveLength(72);
  const shown = Object.fromEntries(rows.map((r) => [r.querySelector("th")!.textContent, Number(r.querySelector("td")!.textContent)]));
  for (let hour = 0; hour < 72; hour++) expect(shown[`Hour ${hour} to ${hour + 1}`]).toBe(CLICKS[hour] ?? 0);
  // Read by screen readers while hidden from sight; the toggle shows it (and hides the picture).
  expect(table.parentElement!.className).toBe("sr-only");
  const toggle = within(figure).getByRole("button", { name: "Show as table" });
  expect(toggle.getAttribute("aria-pressed")).toBe("false");
  fireEvent.click(toggle);
  expect(table.parentElement!.className).toBe("chart-table-wrap");
  expect(picture.hidden).toBe(true);
  expect(within(figure).getByRole("button", { name: "Show as chart" }).getAttribute("aria-pressed")).toBe("true");
});

test("Download CSV fetches ExportBroadcastResults with the session and saves it as broadcast-31-results.csv", async () => {
  const csv = "phone,channel,status\r\n+14155550107,SMS,Delivered\r\n";
  api.routes[RESULTS] = { body: results() };
  api.routes["GET /api/business/ExportBroadcastResults"] = { text: csv, headers: { "content-type": "text/csv; charset=utf-8" } };
  const saved: { download: string; text: Promise<string> }[] = [];
  const realClick = HTMLAnchorElement.prototype.click;
  const realCreate = URL.createObjectURL;
  let blob: Blob | null = null;
  URL.createObjectURL = (b: Blob) => ((blob = b), "blob:results");
  localStorage.setItem("token", "owner-token");
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    saved.push({ download: this.download, text: blob!.text() });
  };
  try {
    const view = open();
    const link = await waitFor(() => view.getByRole("link", { name: "Download CSV" }));
    expect(link.getAttribute("href")).toBe("/api/business/ExportBroadcastResults?id=31");
    fireEvent.click(link);
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.download).toBe("broadcast-31-results.csv");
    expect(await saved[0]!.text).toBe(csv);
    const call = api.calls.find((c) => c.url.startsWith("/api/business/ExportBroadcastResults"))!;
    expect(call.headers.authorization).toBe("Bearer owner-token");
  } finally {
    localStorage.removeItem("token");
    HTMLAnchorElement.prototype.click = realClick;
    URL.createObjectURL = realCreate;
  }
});

test("a CSV that cannot be read says so in a toast", async () => {
  api.routes[RESULTS] = { body: results() };
  api.routes["GET /api/business/ExportBroadcastResults"] = { status: 500, body: { error: "Something went wrong." } };
  const view = open();
  fireEvent.click(await waitFor(() => view.getByRole("link", { name: "Download CSV" })));
  await waitFor(() => view.getByText("Could not download the results"));
});

test("states: loading, then a 404's sentence without Retry; a failed read with Retry that reads again", async () => {
  api.routes[RESULTS] = { status: 404, body: { error: "Broadcast not found", code: "not_found" } };
  let view = open();
  expect(view.getByRole("status").textContent).toBe("Loading the results...");
  const alert = await waitFor(() => view.getByRole("alert"));
  expect(alert.textContent).toBe("Broadcast not found");
  expect(within(alert).queryByRole("button")).toBeNull();
  cleanup();

  api.routes[RESULTS] = { network: true };
  view = open();
  await waitFor(() => view.getByText("Could not load the broadcast's results."));
  expect(logged.length).toBeGreaterThan(0);
  api.routes[RESULTS] = { body: results() };
  fireEvent.click(view.getByRole("button", { name: "Retry" }));
  await waitFor(() => view.getByTestId("card-clicks"));
  expect(api.paths().filter((p) => p === RESULTS)).toHaveLength(3);
});
