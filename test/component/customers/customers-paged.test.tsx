// The Customers screen reads the list a page at a time (ListCustomers): load more, search, filters, and the states
// of each (loading, empty, no match, a failed "load more" that keeps the rows).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, waitFor } from "@testing-library/react";
import { LOAD_MORE, showingText } from "../../../web/shared/components/LoadMore.tsx";
import { CUSTOMER_NOUNS, CustomersListPage, LOAD_MORE_FAILED, NO_MATCHES } from "../../../web/features/customers/CustomersList.tsx";
import { clearSession } from "../../../web/shared/state/session.ts";
import { mockApi } from "../../helpers/mock-api.ts";
import { CUSTOMERS_PAGE } from "./customers-screen.ts";
import { renderAt, settle } from "../render-at.tsx";

const api = mockApi();
const { calls, routes } = api;

const customer = (id: number) => ({
  id,
  phone: `+1415555${String(1000 + id).slice(-4)}`,
  contactPreference: "SMS",
  createdAt: "2026-01-15T12:00:00.000Z",
  businesses: [{ id: 3, name: "Sunrise Bakery", status: "active" }],
});

beforeEach(() => {
  api.fallback = { status: 404, body: { error: "Not found." } };
  routes["GET /api/business/GetMyBusinesses"] = { body: [{ id: 3, name: "Sunrise Bakery", isActive: true }, { id: 4, name: "Corner Cafe", isActive: true }] };
  routes["GET /api/customer/GetSubscriptionRequests"] = { body: [] };
  localStorage.clear();
  clearSession();
});
afterEach(() => cleanup());

const pageCalls = () => calls.filter((c) => c.url.startsWith("/api/customer/ListCustomers")).map((c) => new URL(c.url, "http://x").searchParams);
const open = () => renderAt("/customers", { "/customers": CustomersListPage });

describe("the paged customers list", () => {
  test("the first page at once with 'Showing N of M'; Load more appends the next page until there is none", async () => {
    routes[CUSTOMERS_PAGE] = (call) => {
      const cursor = new URL(call.url, "http://x").searchParams.get("cursor");
      return cursor === "p2"
        ? { body: { items: [customer(2), customer(1)], nextCursor: null, total: 4 } }
        : { body: { items: [customer(4), customer(3)], nextCursor: "p2", total: 4 } };
    };
    const view = open();
    await view.findByText("+14155551004");
    expect(view.getByTestId("showing").textContent).toBe(showingText(2, 4, CUSTOMER_NOUNS));
    expect(showingText(50, 50000, CUSTOMER_NOUNS)).toBe("Showing 50 of 50,000 customers");
    await act(async () => void fireEvent.click(view.getByRole("button", { name: LOAD_MORE })));
    await view.findByText("+14155551001");
    expect([...view.container.querySelectorAll(".cust-phone")].map((e) => e.textContent)).toEqual(["+14155551004", "+14155551003", "+14155551002", "+14155551001"]);
    expect(view.getByTestId("showing").textContent).toBe(showingText(4, 4, CUSTOMER_NOUNS));
    expect(view.queryByRole("button", { name: LOAD_MORE })).toBeNull();
    expect(pageCalls().map((p) => p.get("cursor"))).toEqual([null, "p2"]);
  });

  test("a total the server stopped counting reads 'Showing N of 10,000+ customers', and still after Load more", async () => {
    routes[CUSTOMERS_PAGE] = (call) =>
      new URL(call.url, "http://x").searchParams.get("cursor")
        ? { body: { items: [customer(3)], nextCursor: "p3", total: 10000, totalCapped: true } }
        : { body: { items: [customer(5), customer(4)], nextCursor: "p2", total: 10000, totalCapped: true } };
    const view = open();
    await view.findByText("+14155551005");
    expect(view.getByTestId("showing").textContent).toBe("Showing 2 of 10,000+ customers");
    await act(async () => void fireEvent.click(view.getByRole("button", { name: LOAD_MORE })));
    await view.findByText("+14155551003");
    expect(view.getByTestId("showing").textContent).toBe("Showing 3 of 10,000+ customers");
    expect(showingText(50, 10000, CUSTOMER_NOUNS, true)).toBe("Showing 50 of 10,000+ customers");
  });

  test("a failed 'load more' keeps the rows, says so, and Try again reads the same page", async () => {
    let second = 0;
    routes[CUSTOMERS_PAGE] = (call) => {
      if (!new URL(call.url, "http://x").searchParams.get("cursor")) return { body: { items: [customer(4)], nextCursor: "p2", total: 2 } };
      return ++second === 1 ? { status: 500, body: { error: "boom", code: "internal" } } : { body: { items: [customer(3)], nextCursor: null, total: 2 } };
    };
    const original = console.error;
    console.error = () => {};
    try {
      const view = open();
      await view.findByText("+14155551004");
      await act(async () => void fireEvent.click(view.getByRole("button", { name: LOAD_MORE })));
      await view.findByText(LOAD_MORE_FAILED);
      expect(view.getByText("+14155551004")).toBeTruthy();
      await act(async () => void fireEvent.click(view.getByRole("button", { name: "Try again" })));
      await view.findByText("+14155551003");
      expect(view.queryByText(LOAD_MORE_FAILED)).toBeNull();
    } finally {
      console.error = original;
    }
  });

  test("search and filters go to the server (the search after a pause in typing); no match says so", async () => {
    routes[CUSTOMERS_PAGE] = (call) => {
      const p = new URL(call.url, "http://x").searchParams;
      return p.get("q") || p.get("status") ? { body: { items: [], nextCursor: null, total: 0 } } : { body: { items: [customer(1)], nextCursor: null, total: 1 } };
    };
    const view = open();
    await view.findByText("+14155551001");
    await waitFor(() => expect(view.getByRole("option", { name: "Corner Cafe" })).toBeTruthy());
    fireEvent.change(view.getByLabelText("Business"), { target: { value: "4" } });
    fireEvent.change(view.getByLabelText("Status"), { target: { value: "unsubscribed" } });
    fireEvent.change(view.getByLabelText("Search by phone"), { target: { value: "(415) 555" } });
    await view.findByText(NO_MATCHES, {}, { timeout: 2000 });
    await settle();
    const last = pageCalls().at(-1)!;
    expect({ q: last.get("q"), businessId: last.get("businessId"), status: last.get("status"), limit: last.get("limit") }).toEqual({
      q: "(415) 555",
      businessId: "4",
      status: "unsubscribed",
      limit: "50",
    });
    // Typing did not send a request per key: the first page, then the filtered one(s).
    expect(pageCalls().length).toBeLessThanOrEqual(3);
  });
});
