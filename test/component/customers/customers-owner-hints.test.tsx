// Issue 23 item 12 on the Customers screen: the subtitle names whose customers they are (the admin sees all
// businesses'), and the import dialog tells an owner with no business to create one instead of an empty picker.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/customers/customers-owner-hints.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import { ADMIN_SUBTITLE, CustomersListPage, OWNER_SUBTITLE } from "../../../web/features/customers/CustomersList.tsx";
import { CREATE_BUSINESS_FIRST, ImportCustomersDialog } from "../../../web/features/customers/ImportCustomers.tsx";
import { mockApi, onePage } from "../../helpers/mock-api.ts";
import { renderAt } from "../render-at.tsx";
import { signIn } from "../sign-in.ts";
import { CUSTOMERS_PAGE } from "./customers-screen.ts";

const api = mockApi();

beforeEach(() => {
  api.fallback = { status: 404, body: { error: "Not found." } };
  api.routes[CUSTOMERS_PAGE] = { body: onePage([]) };
  api.routes["GET /api/customer/GetSubscriptionRequests"] = { body: [] };
});
afterEach(() => {
  cleanup();
  signIn(null);
});

const subtitle = (view: ReturnType<typeof render>) => view.container.querySelector(".page-subtitle")?.textContent;

describe("the Customers subtitle", () => {
  test("an owner: their businesses; the admin: all businesses", async () => {
    signIn("owner");
    const owner = renderAt("/customers", { "/customers": CustomersListPage });
    expect(subtitle(owner)).toBe(OWNER_SUBTITLE);
    expect(OWNER_SUBTITLE).toContain("your businesses");
    cleanup();
    signIn("admin");
    const admin = renderAt("/customers", { "/customers": CustomersListPage });
    expect(subtitle(admin)).toBe(ADMIN_SUBTITLE);
    expect(ADMIN_SUBTITLE).toContain("all businesses");
    expect(ADMIN_SUBTITLE).not.toContain("your");
  });
});

describe("the import dialog", () => {
  test("an owner with no business: 'Create a business first' with the link, no empty picker, Import disabled", async () => {
    signIn("owner");
    api.routes["GET /api/business/GetMyBusinesses"] = { body: [] };
    const view = render(<ImportCustomersDialog onClose={() => {}} onImported={() => {}} />);
    const hint = await waitFor(() => view.getByTestId("import-no-business"));
    expect(hint.textContent).toContain(CREATE_BUSINESS_FIRST);
    expect(CREATE_BUSINESS_FIRST.startsWith("Create a business first")).toBe(true);
    expect(view.getByRole("link", { name: "Add your business" }).getAttribute("href")).toBe("/businesses/add");
    expect(view.queryByLabelText("Business")).toBeNull();
    const importButton = view.getByRole("button", { name: "Import" }) as HTMLButtonElement;
    expect(importButton.disabled).toBe(true);
    fireEvent.click(importButton);
    expect(api.paths()).not.toContain("POST /api/customer/ImportCustomers");
  });

  test("with a business: the picker, no hint", async () => {
    signIn("owner");
    api.routes["GET /api/business/GetMyBusinesses"] = { body: [{ id: 3, name: "Sunrise Bakery", isActive: true }] };
    const view = render(<ImportCustomersDialog onClose={() => {}} onImported={() => {}} />);
    await waitFor(() => expect((view.getByLabelText("Business") as HTMLSelectElement).value).toBe("3"));
    expect(view.queryByTestId("import-no-business")).toBeNull();
  });
});
