// The customer form and list on happy-dom, with fetch mocked at the global (the only thing web/shared/api/client.ts calls).
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/customers/customer-form.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import { Route, Router, Switch } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { CREATE_CUSTOMER_FAILED, CustomerFormPage, UPDATE_CUSTOMER_FAILED, SEND_CONFIRMATION_NOTE } from "../../../web/features/customers/CustomerForm.tsx";
import { CUSTOMERS_PAGE } from "./customers-screen.ts";
import { CustomersListPage, DELETE_CUSTOMER_FAILED, NO_CUSTOMERS, deleteConfirmText, shortDate } from "../../../web/features/customers/CustomersList.tsx";
import { clearSession } from "../../../web/shared/state/session.ts";
import { toasts } from "../../../web/shared/state/toasts.ts";
import { mockApi, onePage } from "../../helpers/mock-api.ts";
import { renderAt as renderScreens } from "../render-at.tsx";

const api = mockApi();
const { calls, routes } = api;

const BAKERY = { id: 3, name: "Sunrise Bakery", isActive: true };
const CUSTOMER = { id: 9, phone: "+14155550134", contactPreference: "WhatsApp", createdAt: "2026-01-15T12:00:00.000Z", businesses: [{ id: 3, name: "Sunrise Bakery", status: "active" }] };

beforeEach(() => {
  // Anything a test does not name answers 404, as the server does.
  api.fallback = { status: 404, body: { error: "Not found." } };
  localStorage.clear();
  clearSession();
  toasts.value = [];
});

afterEach(() => {
  cleanup();
  toasts.value = [];
});

const renderAt = (path: string) =>
  renderScreens(path, {
    "/customers": CustomersListPage,
    "/customers/add": CustomerFormPage,
    "/customers/edit/:id": CustomerFormPage,
  });

const submitButton = (c: HTMLElement) => c.querySelector<HTMLButtonElement>("button[type=submit]")!;
const phoneInput = (c: HTMLElement) => c.querySelector<HTMLInputElement>("input[name=phone]")!;
const radio = (c: HTMLElement, value: string) => c.querySelector<HTMLInputElement>(`input[type=radio][value=${value}]`)!;

describe("customer form: add", () => {
  test("submit stays disabled while invalid; the spec's texts show for touched fields", async () => {
    routes["GET /api/business/GetMyBusinesses"] = { body: [BAKERY, { id: 4, name: "Corner Cafe", isActive: true }] };
    const { container, findByText } = renderAt("/customers/add");
    await waitFor(() => expect(phoneInput(container)).toBeTruthy());
    expect(submitButton(container).disabled).toBe(true);

    fireEvent.blur(phoneInput(container));
    expect(await findByText("Phone number is required")).toBeTruthy();
    fireEvent.change(phoneInput(container), { target: { value: "call me" } });
    expect(await findByText("Please enter a valid phone number")).toBeTruthy();
    fireEvent.change(phoneInput(container), { target: { value: "+1234567890123456789" } });
    expect(await findByText("Please enter a valid phone number")).toBeTruthy();
    fireEvent.blur(radio(container, "SMS"));
    expect(await findByText("Please select a contact preference")).toBeTruthy();
    fireEvent.blur(container.querySelector("select[name=businessId]")!);
    expect(await findByText("Please select a business")).toBeTruthy();

    fireEvent.change(phoneInput(container), { target: { value: "(415) 555-0134" } });
    fireEvent.click(radio(container, "SMS"));
    expect(submitButton(container).disabled).toBe(true); // still no business
    fireEvent.change(container.querySelector("select[name=businessId]")!, { target: { value: "4" } });
    await waitFor(() => expect(submitButton(container).disabled).toBe(false));
    expect(container.textContent).not.toContain("Please enter a valid phone number");
    expect(calls.filter((c) => c.method !== "GET")).toEqual([]);
  });

  test("sends phone, preference and business, then returns to the list", async () => {
    routes["GET /api/business/GetMyBusinesses"] = { body: [BAKERY] };
    routes["POST /api/customer/CreateCustomer"] = { status: 201, body: CUSTOMER };
    routes[CUSTOMERS_PAGE] = { body: onePage([CUSTOMER]) };
    const { container, at } = renderAt("/customers/add");
    await waitFor(() => expect(container.querySelector<HTMLSelectElement>("select[name=businessId]")?.value).toBe("3"));
    fireEvent.change(phoneInput(container), { target: { value: " (415) 555-0134 " } });
    fireEvent.click(radio(container, "WhatsApp"));
    await waitFor(() => expect(submitButton(container).disabled).toBe(false));
    await act(async () => {
      fireEvent.submit(container.querySelector("form")!);
    });
    await waitFor(() => expect(at()).toBe("/customers"));
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ phone: "(415) 555-0134", contactPreference: "WhatsApp", businessId: 3, sendConfirmation: true });
  });

  test("the confirmation text box starts ticked; unticked, the add says sendConfirmation false; editing has no box", async () => {
    routes["GET /api/business/GetMyBusinesses"] = { body: [BAKERY] };
    routes["POST /api/customer/CreateCustomer"] = { status: 201, body: CUSTOMER };
    routes[CUSTOMERS_PAGE] = { body: onePage([CUSTOMER]) };
    const { container, at } = renderAt("/customers/add");
    await waitFor(() => expect(container.querySelector<HTMLSelectElement>("select[name=businessId]")?.value).toBe("3"));
    const box = container.querySelector<HTMLInputElement>("input[type=checkbox][name=sendConfirmation]")!;
    expect(box.checked).toBe(true);
    expect(container.textContent).toContain(SEND_CONFIRMATION_NOTE);
    fireEvent.click(box);
    expect(box.checked).toBe(false);
    fireEvent.change(phoneInput(container), { target: { value: "(415) 555-0134" } });
    fireEvent.click(radio(container, "SMS"));
    await waitFor(() => expect(submitButton(container).disabled).toBe(false));
    await act(async () => {
      fireEvent.submit(container.querySelector("form")!);
    });
    await waitFor(() => expect(at()).toBe("/customers"));
    expect((calls.find((c) => c.method === "POST")?.body as { sendConfirmation: boolean }).sendConfirmation).toBe(false);
  });

  test("a failed save shows 'Error creating customer. Please try again.' with the server's reason", async () => {
    routes["GET /api/business/GetMyBusinesses"] = { body: [BAKERY] };
    routes["POST /api/customer/CreateCustomer"] = { status: 409, body: { error: "+14155550134 is already subscribed to Sunrise Bakery.", code: "conflict" } };
    const { container, findByText, at } = renderAt("/customers/add");
    await waitFor(() => expect(container.querySelector<HTMLSelectElement>("select[name=businessId]")?.value).toBe("3"));
    fireEvent.change(phoneInput(container), { target: { value: "4155550134" } });
    fireEvent.click(radio(container, "SMS"));
    await waitFor(() => expect(submitButton(container).disabled).toBe(false));
    fireEvent.submit(container.querySelector("form")!);
    expect(await findByText(CREATE_CUSTOMER_FAILED)).toBeTruthy();
    expect(container.textContent).toContain("already subscribed to Sunrise Bakery");
    expect(at()).toBe("/customers/add");
  });

  test("the server's field message is shown under the field", async () => {
    routes["GET /api/business/GetMyBusinesses"] = { body: [BAKERY] };
    routes["POST /api/customer/CreateCustomer"] = {
      status: 400,
      body: { error: "Please enter a valid phone number", code: "validation_failed", fields: { phone: "Please enter a valid phone number" } },
    };
    const { container, findAllByText } = renderAt("/customers/add");
    await waitFor(() => expect(container.querySelector<HTMLSelectElement>("select[name=businessId]")?.value).toBe("3"));
    fireEvent.change(phoneInput(container), { target: { value: "5555555555" } });
    fireEvent.click(radio(container, "SMS"));
    await waitFor(() => expect(submitButton(container).disabled).toBe(false));
    fireEvent.submit(container.querySelector("form")!);
    const shown = await findAllByText("Please enter a valid phone number");
    expect(shown.some((el) => el.classList.contains("field-error"))).toBe(true);
  });

  test("an owner without a business is told to add one first", async () => {
    routes["GET /api/business/GetMyBusinesses"] = { body: [] };
    const { findByText } = renderAt("/customers/add");
    expect(await findByText(/You need a business before you can add customers/)).toBeTruthy();
  });
});

describe("customer form: edit", () => {
  test("loads the customer, sends the update, returns to the list", async () => {
    routes["GET /api/customer/GetCustomerById"] = { body: CUSTOMER };
    routes["PUT /api/customer/UpdateCustomer"] = { body: CUSTOMER };
    routes[CUSTOMERS_PAGE] = { body: onePage([CUSTOMER]) };
    const { container, at } = renderAt("/customers/edit/9");
    await waitFor(() => expect(phoneInput(container)?.value).toBe("+14155550134"));
    expect(radio(container, "WhatsApp").checked).toBe(true);
    expect(container.querySelector("select[name=businessId]")).toBeNull();
    expect(submitButton(container).disabled).toBe(false);
    fireEvent.change(phoneInput(container), { target: { value: "" } });
    await waitFor(() => expect(submitButton(container).disabled).toBe(true));
    fireEvent.change(phoneInput(container), { target: { value: "415 555 0199" } });
    fireEvent.click(radio(container, "SMS"));
    await waitFor(() => expect(submitButton(container).disabled).toBe(false));
    fireEvent.submit(container.querySelector("form")!);
    await waitFor(() => expect(at()).toBe("/customers"));
    const put = calls.find((c) => c.method === "PUT")!;
    expect(put.url).toBe("/api/customer/UpdateCustomer?id=9");
    expect(put.body).toEqual({ phone: "415 555 0199", contactPreference: "SMS" });
  });

  test("a failed update shows 'Error updating customer. Please try again.'", async () => {
    routes["GET /api/customer/GetCustomerById"] = { body: CUSTOMER };
    routes["PUT /api/customer/UpdateCustomer"] = { network: true };
    const { container, findByText } = renderAt("/customers/edit/9");
    await waitFor(() => expect(phoneInput(container)?.value).toBe("+14155550134"));
    fireEvent.submit(container.querySelector("form")!);
    expect(await findByText(UPDATE_CUSTOMER_FAILED)).toBeTruthy();
  });

  test("a record that cannot be loaded sends the user back to the list", async () => {
    routes["GET /api/customer/GetCustomerById"] = { status: 404, body: { error: "Customer not found." } };
    routes[CUSTOMERS_PAGE] = { body: onePage([]) };
    const { at } = renderAt("/customers/edit/77");
    await waitFor(() => expect(at()).toBe("/customers"));
  });
});

describe("customers list", () => {
  test("empty: 'No customers found.' with an 'Add the first one' link", async () => {
    routes[CUSTOMERS_PAGE] = { body: onePage([]) };
    const { findByText } = renderAt("/customers");
    expect(await findByText(NO_CUSTOMERS)).toBeTruthy();
    const link = (await findByText("Add the first one")) as HTMLAnchorElement;
    expect(link.getAttribute("href")).toBe("/customers/add");
  });

  test("table: the spec's columns, a preference badge, a short date, the three actions", async () => {
    routes[CUSTOMERS_PAGE] = { body: onePage([CUSTOMER, { ...CUSTOMER, id: 10, phone: "+14155550135", contactPreference: "SMS" }]) };
    const { container, findByText } = renderAt("/customers");
    await findByText("+14155550134");
    const heads = [...container.querySelectorAll("th")].map((th) => th.textContent);
    expect(heads).toEqual(["Phone Number", "Contact Preference", "Created Date", "Actions"]);
    expect([...container.querySelectorAll("td .badge")].map((b) => b.textContent)).toEqual(["WhatsApp", "SMS"]);
    expect(container.textContent).toContain(shortDate(CUSTOMER.createdAt));
    expect(shortDate("2026-01-15T12:00:00.000Z")).toBe("1/15/26");
    const firstRow = container.querySelector("tbody tr")!;
    expect([...firstRow.querySelectorAll("button, a")].map((b) => b.textContent)).toEqual(["Messages", "Edit", "Delete"]);
    expect(firstRow.querySelector("a")?.getAttribute("href")).toBe("/customers/edit/9");
  });

  test("delete asks naming the phone number, then reloads; a failure shows the spec's alert", async () => {
    routes[CUSTOMERS_PAGE] = { body: onePage([CUSTOMER]) };
    routes["DELETE /api/customer/DeleteCustomer"] = { body: { message: "Customer deleted." } };
    const { findByText, findByLabelText } = renderAt("/customers");
    fireEvent.click(await findByLabelText("Delete +14155550134"));
    expect(api.confirms).toEqual([deleteConfirmText("+14155550134")]);
    expect(deleteConfirmText("+14155550134")).toContain("+14155550134");
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith("/api/customer/ListCustomers"))).toHaveLength(2));
    expect(calls.find((c) => c.method === "DELETE")?.url).toBe("/api/customer/DeleteCustomer?id=9");

    routes["DELETE /api/customer/DeleteCustomer"] = { status: 500, body: { error: "boom" } };
    fireEvent.click(await findByLabelText("Delete +14155550134"));
    expect(await findByText(DELETE_CUSTOMER_FAILED)).toBeTruthy();
  });

  test("declining the confirmation deletes nothing", async () => {
    routes[CUSTOMERS_PAGE] = { body: onePage([CUSTOMER]) };
    api.confirmAnswer = false;
    const { findByLabelText } = renderAt("/customers");
    fireEvent.click(await findByLabelText("Delete +14155550134"));
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
  });

  test("Messages opens the customer's message history and Close closes it", async () => {
    routes[CUSTOMERS_PAGE] = { body: onePage([CUSTOMER]) };
    routes["GET /api/customer/ListCustomerMessages"] = {
      body: onePage([
        {
          businessName: "Sunrise Bakery",
          status: "Delivered",
          messageType: "WhatsApp",
          sentAt: "2026-01-15T12:00:00.000Z",
          messageText: "Croissants 2 for 1 today!",
          imageUrl: null,
          errorMessage: null,
        },
      ]),
    };
    const mem = memoryLocation({ path: "/customers" });
    const { findByText, findByRole, queryByRole } = render(
      <Router hook={mem.hook}>
        <CustomersListPage />
      </Router>,
    );
    fireEvent.click(await findByText("Messages"));
    const dialog = await findByRole("dialog");
    expect(dialog.textContent).toContain("Customer Messages");
    expect(await findByText("Croissants 2 for 1 today!")).toBeTruthy();
    expect(calls.some((c) => c.url.includes("ListCustomerMessages?customerId=9"))).toBe(true);
    fireEvent.click(await findByText("Close"));
    await waitFor(() => expect(queryByRole("dialog")).toBeNull());
  });
});
