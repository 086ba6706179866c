// The smaller lists paged on the server (issue 12): the public business list and the admin's business types (a
// search, Load more, no match), and the subscriber counts on the My Business cards.
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/paged-lists.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import type { BroadcastSummary } from "../../web/features/broadcast/api/broadcasts.ts";
import { BroadcastHistory, mergeFirstPage } from "../../web/features/broadcast/components/BroadcastHistory.tsx";
import { broadcastSummary } from "./broadcast/broadcast-screen.tsx";
import { LOAD_MORE } from "../../web/shared/components/LoadMore.tsx";
import { SEARCH_DELAY_MS } from "../../web/shared/components/SearchBox.tsx";
import { BusinessTypesListPage } from "../../web/features/business-types/BusinessTypesList.tsx";
import { BusinessListPage, noMatchText } from "../../web/features/businesses/BusinessList.tsx";
import { MyBusinessPage, subscribersText } from "../../web/features/businesses/MyBusiness.tsx";
import { token } from "../../web/shared/state/session.ts";
import { mockApi, onePage } from "../helpers/mock-api.ts";
import { renderAt } from "./render-at.tsx";

const api = mockApi();
const realConsoleError = console.error;

beforeEach(() => {
  token.value = "owner-token";
  api.fallback = { status: 404, body: { error: "Not found.", code: "not_found" } };
});
afterEach(() => {
  cleanup();
  console.error = realConsoleError;
  token.value = null;
});

const business = (id: number, name: string) => ({
  id,
  name,
  businessTypeId: 1,
  businessType: { id: 1, name: "Bakery" },
  address: `${id} Main St`,
  phone: "+14155550100",
  logoImagePath: null,
  sampleImagePath: null,
  sampleProductText: "Bread",
  qrCodeMessage: "",
  successMessage: "",
  isActive: true,
  createdAt: "2026-01-15T12:00:00.000Z",
  ownerId: 7,
});
const queryOf = (url: string) => new URL(url, "http://x").searchParams;
const calledWith = (path: string) => api.calls.filter((c) => c.url.startsWith(path)).map((c) => queryOf(c.url));
const cardNames = (el: HTMLElement) => [...el.querySelectorAll(".biz-name")].map((n) => n.textContent);

describe("/businesses (public)", () => {
  const PAGE = "GET /api/business/ListBusinesses";

  test("the first page, then Load more appends the next; the showing line counts them", async () => {
    api.routes[PAGE] = (call) =>
      queryOf(call.url).get("cursor") === "p2"
        ? { body: { items: [business(3, "Cafe")], nextCursor: null, total: 3 } }
        : { body: { items: [business(1, "Anna's"), business(2, "Bakery")], nextCursor: "p2", total: 3 } };
    const view = renderAt("/businesses", { "/businesses": BusinessListPage });
    await view.findByText("Anna's");
    expect(view.getByTestId("showing").textContent).toBe("Showing 2 of 3 businesses");
    await act(async () => void fireEvent.click(view.getByRole("button", { name: LOAD_MORE })));
    await view.findByText("Cafe");
    expect(cardNames(view.container)).toEqual(["Anna's", "Bakery", "Cafe"]);
    expect(view.queryByRole("button", { name: LOAD_MORE })).toBeNull();
    expect(calledWith("/api/business/ListBusinesses").map((q) => q.get("cursor"))).toEqual([null, "p2"]);
  });

  test("typing searches the names after a pause (one request); no match says so; clearing shows them all", async () => {
    api.routes[PAGE] = (call) => {
      const q = queryOf(call.url).get("q");
      return q ? { body: onePage([]) } : { body: onePage([business(1, "Anna's")]) };
    };
    const view = renderAt("/businesses", { "/businesses": BusinessListPage });
    await view.findByText("Anna's");
    const search = view.getByRole("searchbox", { name: "Search by name" });
    fireEvent.change(search, { target: { value: "z" } });
    fireEvent.change(search, { target: { value: "zz" } });
    await view.findByText(noMatchText("zz"), undefined, { timeout: SEARCH_DELAY_MS * 8 });
    expect(calledWith("/api/business/ListBusinesses").map((q) => q.get("q"))).toEqual([null, "zz"]);
    fireEvent.change(search, { target: { value: "" } });
    await view.findByText("Anna's", undefined, { timeout: SEARCH_DELAY_MS * 8 });
  });

  test("no business at all: the empty notice and no search field", async () => {
    api.routes[PAGE] = { body: onePage([]) };
    const view = renderAt("/businesses", { "/businesses": BusinessListPage });
    await view.findByText("No businesses yet.");
    expect(view.queryByRole("searchbox")).toBeNull();
  });
});

describe("/business-types (admin)", () => {
  test("a page, Load more, and the search sent as q", async () => {
    const type = (id: number, name: string) => ({ id, name, description: "", isActive: true, createdAt: "2026-01-15T12:00:00.000Z" });
    api.routes["GET /api/businesstype/ListBusinessTypes"] = (call) => {
      const p = queryOf(call.url);
      if (p.get("q")) return { body: onePage([type(9, "Barber")]) };
      return p.get("cursor") ? { body: { items: [type(2, "Gym")], nextCursor: null, total: 2 } } : { body: { items: [type(1, "Bakery")], nextCursor: "c", total: 2 } };
    };
    const view = renderAt("/business-types", { "/business-types": BusinessTypesListPage });
    await view.findByText("Bakery");
    await act(async () => void fireEvent.click(view.getByRole("button", { name: LOAD_MORE })));
    await view.findByText("Gym");
    expect(view.getByTestId("showing").textContent).toBe("Showing 2 of 2 business types");
    fireEvent.change(view.getByRole("searchbox", { name: "Search by name" }), { target: { value: " barb " } });
    await view.findByText("Barber", undefined, { timeout: SEARCH_DELAY_MS * 8 });
    expect(view.queryByText("Gym")).toBeNull();
    expect(calledWith("/api/businesstype/ListBusinessTypes").at(-1)!.get("q")).toBe("barb");
  });
});

describe("/my-business: subscriber counts on the cards", () => {
  test("one request for every card's count; a business without subscribers says 0", async () => {
    api.routes["GET /api/business/GetMyBusinesses"] = { body: [business(1, "Bakery"), business(2, "Cafe")] };
    api.routes["GET /api/business/GetMySubscriberCounts"] = { body: [{ businessId: 1, subscribers: 1234 }, { businessId: 2, subscribers: 0 }] };
    const view = renderAt("/my-business", { "/my-business": MyBusinessPage });
    await waitFor(() => expect(view.getAllByTestId("subscribers").length).toBe(2));
    expect(view.getAllByTestId("subscribers").map((d) => d.textContent)).toEqual(["1,234 subscribers", "0 subscribers"]);
    expect(subscribersText(1)).toBe("1 subscriber");
    expect(api.calls.filter((c) => c.url.includes("GetMySubscriberCounts")).length).toBe(1);
  });

  test("counts that fail to load: the cards show without a count (never a wrong 0)", async () => {
    console.error = () => {};
    api.routes["GET /api/business/GetMyBusinesses"] = { body: [business(1, "Rosa's")] };
    api.routes["GET /api/business/GetMySubscriberCounts"] = { status: 500, body: { error: "boom", code: "internal" } };
    const view = renderAt("/my-business", { "/my-business": MyBusinessPage });
    await view.findByText("Rosa's");
    await waitFor(() => expect(api.calls.some((c) => c.url.includes("GetMySubscriberCounts"))).toBe(true));
    await act(async () => {});
    expect(view.queryByTestId("subscribers")).toBeNull();
  });
});

describe("the broadcast history, a page at a time", () => {
  const done = (id: number, createdAt: string, over: Partial<BroadcastSummary> = {}): BroadcastSummary =>
    broadcastSummary({ id, messageText: `Deal ${id}`, createdAt, total: 10, delivered: 10, completedAt: createdAt, startedAt: createdAt, ...over });

  test("Load more appends older broadcasts; reading the first page again (a new send) keeps them, in order", async () => {
    const b3 = done(3, "2026-11-20T10:00:00.000Z");
    const b2 = done(2, "2026-11-19T10:00:00.000Z");
    const b1 = done(1, "2026-11-18T10:00:00.000Z");
    const b4 = done(4, "2026-11-21T10:00:00.000Z");
    let firstPage: BroadcastSummary[] = [b3, b2];
    let total = 3;
    api.routes["GET /api/business/ListBroadcasts"] = (call) =>
      queryOf(call.url).get("cursor") === "older" ? { body: { items: [b1], nextCursor: null, total } } : { body: { items: firstPage, nextCursor: "older", total } };
    const ids = (el: HTMLElement) => [...el.querySelectorAll("[data-testid^=broadcast-]")].map((n) => n.getAttribute("data-testid"));
    const view = render(<BroadcastHistory businessId="7" />);
    await view.findByText("Deal 3");
    expect(view.getByTestId("showing").textContent).toBe("Showing 2 of 3 broadcasts");
    await act(async () => void fireEvent.click(view.getByRole("button", { name: LOAD_MORE })));
    await view.findByText("Deal 1");
    expect(ids(view.container)).toEqual(["broadcast-3", "broadcast-2", "broadcast-1"]);
    expect(view.queryByRole("button", { name: LOAD_MORE })).toBeNull();
    // A broadcast was just sent: the first page is now 4 and 3; 2 (off it now) and 1 stay shown.
    firstPage = [b4, b3];
    total = 4;
    view.rerender(<BroadcastHistory businessId="7" refreshKey={1} />);
    await view.findByText("Deal 4");
    expect(ids(view.container)).toEqual(["broadcast-4", "broadcast-3", "broadcast-2", "broadcast-1"]);
    expect(view.getByTestId("showing").textContent).toBe("Showing 4 of 4 broadcasts");
  });

  test("mergeFirstPage: fresh rows replace shown ones by id; the rest stay; newest first", () => {
    const old = done(1, "2026-11-18T10:00:00.000Z");
    const sending = done(2, "2026-11-19T10:00:00.000Z", { queued: 5, delivered: 5 });
    const fresh = done(2, "2026-11-19T10:00:00.000Z", { queued: 0, delivered: 10 });
    expect(mergeFirstPage([sending, old], [fresh]).map((b) => [b.id, b.queued])).toEqual([[2, 0], [1, 0]]);
  });
});
