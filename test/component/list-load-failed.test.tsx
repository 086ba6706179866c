// A list that fails to load says so, with Retry, instead of its empty notice (the failure is still logged, spec §8).
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/list-load-failed.test.tsx
import { CUSTOMERS_PAGE } from "./customers/customers-screen.ts";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { act, cleanup, fireEvent, waitFor } from "@testing-library/react";
import type { ComponentType } from "react";
import { BusinessTypesListPage } from "../../web/features/business-types/BusinessTypesList.tsx";
import { BusinessListPage } from "../../web/features/businesses/BusinessList.tsx";
import { MyBusinessPage } from "../../web/features/businesses/MyBusiness.tsx";
import { CustomersListPage } from "../../web/features/customers/CustomersList.tsx";
import { token } from "../../web/shared/state/session.ts";
import { mockApi, onePage } from "../helpers/mock-api.ts";
import { captureConsoleErrors } from "./console-errors.ts";
import { renderAt } from "./render-at.tsx";

const api = mockApi();
const logged = captureConsoleErrors();

beforeEach(() => {
  token.value = "owner-token";
  api.routes["GET /api/customer/GetSubscriptionRequests"] = { body: [] }; // the Customers screen's requests panel
});
afterEach(() => {
  cleanup();
  token.value = null;
});

const screens: [string, string, ComponentType, string, string, unknown?][] = [
  ["/customers", CUSTOMERS_PAGE, CustomersListPage, "customers", "No customers found.", onePage([])],
  ["/my-business", "GET /api/business/GetMyBusinesses", MyBusinessPage, "businesses", "You have not added a business yet."],
  ["/business-types", "GET /api/businesstype/ListBusinessTypes", BusinessTypesListPage, "business types", "No business types found.", onePage([])],
  ["/businesses", "GET /api/business/ListBusinesses", BusinessListPage, "businesses", "No businesses yet.", onePage([])],
];

for (const [path, route, Screen, what, empty, emptyBody = []] of screens) {
  test(`${path}: a failed load logs, shows 'Could not load ${what}.' and Retry, never '${empty}'; Retry reads it again`, async () => {
    let answers = 0;
    api.routes[route] = () => (++answers === 1 ? { status: 500, body: { error: "boom", code: "internal" } } : { body: emptyBody });
    const view = renderAt(path, { [path]: Screen });
    await waitFor(() => view.getByRole("alert"));
    expect(view.getByRole("alert").textContent).toContain(`Could not load ${what}.`);
    expect(view.queryByText(empty)).toBeNull();
    expect(logged.some((args) => String(args[0]) === `Error loading ${what}:`)).toBe(true);

    await act(async () => void fireEvent.click(view.getByRole("button", { name: "Retry" })));
    await waitFor(() => view.getByText(empty));
    expect(answers).toBe(2);
    expect(view.queryByText(`Could not load ${what}.`)).toBeNull();
    expect(view.queryByRole("button", { name: "Retry" })).toBeNull();
  });
}
