// The Customers screen's "Asked to subscribe again" panel: shown only with pending requests; Accept and Decline post
// the request's ids, and the screen reloads what changed.
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/customers/subscription-requests.test.tsx
import { CUSTOMERS_PAGE } from "./customers-screen.ts";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { act, cleanup, fireEvent, waitFor } from "@testing-library/react";
import type { SubscriptionRequestView } from "../../../src/schemas/subscriptions.ts";
import { CustomersListPage, NO_CUSTOMERS } from "../../../web/features/customers/CustomersList.tsx";
import { REQUESTS_TITLE } from "../../../web/features/customers/SubscriptionRequests.tsx";
import { token } from "../../../web/shared/state/session.ts";
import { mockApi, onePage } from "../../helpers/mock-api.ts";
import { renderAt } from "../render-at.tsx";

const api = mockApi();
const LIST = CUSTOMERS_PAGE;
const REQUESTS = "GET /api/customer/GetSubscriptionRequests";
const ACCEPT = "POST /api/customer/AcceptSubscriptionRequest";
const DECLINE = "POST /api/customer/DeclineSubscriptionRequest";

const request = (over: Partial<SubscriptionRequestView> = {}): SubscriptionRequestView => ({
  customerId: 7,
  businessId: 3,
  businessName: "Sunrise Bakery",
  phone: "+14155550150",
  contactPreference: "WhatsApp",
  requestedAt: "2026-11-20T15:30:00.000Z",
  ...over,
});

let pending: SubscriptionRequestView[] = [];
const count = (key: string) => api.paths().filter((p) => p === key).length;

beforeEach(() => {
  token.value = "owner-token";
  pending = [request(), request({ customerId: 8, phone: "+14155550151", contactPreference: "SMS" })];
  api.routes[LIST] = { body: onePage([]) };
  api.routes[REQUESTS] = () => ({ body: pending });
  api.routes[ACCEPT] = (call) => {
    pending = pending.filter((r) => r.customerId !== (call.body as { customerId: number }).customerId);
    return { body: { message: "Request accepted." } };
  };
  api.routes[DECLINE] = (call) => {
    pending = pending.filter((r) => r.customerId !== (call.body as { customerId: number }).customerId);
    return { body: { message: "Request declined." } };
  };
});
afterEach(() => {
  cleanup();
  token.value = null;
});

test("no pending request: no panel, only the list", async () => {
  pending = [];
  const view = renderAt("/customers", { "/customers": CustomersListPage });
  await waitFor(() => view.getByText(NO_CUSTOMERS));
  expect(count(REQUESTS)).toBe(1);
  expect(view.queryByText(REQUESTS_TITLE)).toBeNull();
});

test("the panel lists each request (phone, business, channel) above the table with Accept and Decline", async () => {
  const view = renderAt("/customers", { "/customers": CustomersListPage });
  await waitFor(() => view.getByText(REQUESTS_TITLE));
  expect(view.getByText("+14155550150")).toBeTruthy();
  expect(view.getByText("+14155550151")).toBeTruthy();
  expect(view.container.textContent).toContain("Sunrise Bakery · WhatsApp");
  expect(view.getByRole("button", { name: "Accept +14155550150 for Sunrise Bakery" })).toBeTruthy();
  expect(view.getByRole("button", { name: "Decline +14155550151 for Sunrise Bakery" })).toBeTruthy();
  // Above the list: the panel comes first in the page.
  const panel = view.getByText(REQUESTS_TITLE);
  const empty = view.getByText(NO_CUSTOMERS);
  expect(panel.compareDocumentPosition(empty) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
});

test("Accept posts the ids, the request leaves the panel and the customer list reloads", async () => {
  const view = renderAt("/customers", { "/customers": CustomersListPage });
  await waitFor(() => view.getByText(REQUESTS_TITLE));
  const listsBefore = count(LIST);
  await act(async () => void fireEvent.click(view.getByRole("button", { name: "Accept +14155550150 for Sunrise Bakery" })));
  await waitFor(() => expect(view.queryByText("+14155550150")).toBeNull());
  expect(api.calls.find((c) => `${c.method} ${c.url}` === ACCEPT)?.body).toEqual({ customerId: 7, businessId: 3 });
  expect(count(LIST)).toBe(listsBefore + 1);
  expect(view.getByText("+14155550151")).toBeTruthy();
});

test("Decline posts the ids; the last one answered hides the panel; the list is not reloaded", async () => {
  pending = [request()];
  const view = renderAt("/customers", { "/customers": CustomersListPage });
  await waitFor(() => view.getByText(REQUESTS_TITLE));
  const listsBefore = count(LIST);
  await act(async () => void fireEvent.click(view.getByRole("button", { name: "Decline +14155550150 for Sunrise Bakery" })));
  await waitFor(() => expect(view.queryByText(REQUESTS_TITLE)).toBeNull());
  expect(api.calls.find((c) => `${c.method} ${c.url}` === DECLINE)?.body).toEqual({ customerId: 7, businessId: 3 });
  expect(count(LIST)).toBe(listsBefore);
});

test("a refused answer shows the server's message in the panel", async () => {
  api.routes[ACCEPT] = { status: 404, body: { error: "Subscription request not found.", code: "not_found" } };
  const view = renderAt("/customers", { "/customers": CustomersListPage });
  await waitFor(() => view.getByText(REQUESTS_TITLE));
  await act(async () => void fireEvent.click(view.getByRole("button", { name: "Accept +14155550150 for Sunrise Bakery" })));
  await waitFor(() => view.getByRole("alert"));
  expect(view.getByRole("alert").textContent).toBe("Subscription request not found.");
});
