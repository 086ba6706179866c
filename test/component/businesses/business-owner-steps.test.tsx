// Issue 23 item 12 on the business screens: a toast and My Business after Create Business, a disabled Create Business
// that says what is missing, unsaved edits that a nav tap does not drop, and deleting a business with the app's own
// dialog that says how many people it reaches.
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/businesses/business-owner-steps.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, waitFor } from "@testing-library/react";
import { Link } from "wouter";
import { BusinessFormPage, CREATED_TITLE, createdText } from "../../../web/features/businesses/BusinessForm.tsx";
import { POSTERS_STOP } from "../../../web/features/businesses/components/DeleteBusinessDialog.tsx";
import { MyBusinessPage } from "../../../web/features/businesses/MyBusiness.tsx";
import { Toasts } from "../../../web/shared/components/Toasts.tsx";
import { LEAVE_TITLE } from "../../../web/shared/components/useLeaveGuard.tsx";
import { token } from "../../../web/shared/state/session.ts";
import { toasts } from "../../../web/shared/state/toasts.ts";
import { JPEG } from "../../helpers/images.ts";
import { mockApi } from "../../helpers/mock-api.ts";
import { renderAt } from "../render-at.tsx";
import { ROSIES_CORNER_BAKERY } from "./business-fixtures.ts";

const api = mockApi();
const B = "/api/business";
const bakery = { id: 1, name: "Bakery", description: "", isActive: true, createdAt: "2026-01-01T00:00:00.000Z" };

beforeEach(() => {
  localStorage.setItem("token", "owner-token");
  token.value = "owner-token";
  toasts.value = [];
  api.routes["GET /api/businesstype/GetAllBusinessTypes"] = { body: [bakery] };
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  token.value = null;
  toasts.value = [];
});

const open = (path: string) =>
  renderAt(
    path,
    { "/my-business": MyBusinessPage, "/businesses/add": BusinessFormPage, "/businesses/edit/:id": BusinessFormPage, "/customers": <p>Customers screen</p> },
    <>
      <Link href="/customers">Customers</Link>
      <Toasts />
    </>,
  );
type View = ReturnType<typeof open>;
const type = (view: View, label: string, value: string) => fireEvent.change(view.getByLabelText(label), { target: { value } });
const missing = (view: View) => view.queryByTestId("form-missing")?.textContent ?? null;

async function chooseSample(view: View) {
  const input = view.container.querySelector("input[type=file][name=sample]") as HTMLInputElement;
  Object.defineProperty(input, "files", { value: [new File([new Uint8Array(JPEG)], "bread.jpg", { type: "image/jpeg" })], configurable: true });
  const picker = view.container.querySelector("[data-image=sample]")!;
  const before = picker.innerHTML;
  fireEvent.change(input);
  await waitFor(() => expect(picker.innerHTML !== before).toBe(true));
}

describe("Create Business", () => {
  test("disabled, it says what is missing, field by field, and the list shrinks as they are filled", async () => {
    const view = open("/businesses/add");
    await waitFor(() => expect(view.container.querySelectorAll("select[name=businessTypeId] option").length).toBe(2));
    const button = view.getByRole("button", { name: "Create Business" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(missing(view)).toBe(
      "Create Business needs: Business Name (Business name is required); Business Type (Business type is required); Address (Business address is required); Phone (Phone number is required); Sample Product (Sample product description is required); a sample product image.",
    );
    expect(button.getAttribute("aria-describedby")).toBe(view.getByTestId("form-missing").id);
    type(view, "Business Name", "Rosie's Corner Bakery");
    fireEvent.change(view.getByLabelText("Business Type"), { target: { value: "1" } });
    type(view, "Address", "12 Baker Street, Springfield");
    type(view, "Phone", "(217) 555-0134");
    expect(missing(view)).toBe("Create Business needs: Sample Product (Sample product description is required); a sample product image.");
    type(view, "Sample Product", "Sourdough loaf");
    expect(button.disabled).toBe(false);
    expect(missing(view)).toBeNull();
    expect(button.getAttribute("aria-describedby")).toBeNull();
  });

  test("after it is created: a toast naming it, then My Business (not the public list)", async () => {
    api.routes[`POST ${B}/UploadSampleImage`] = { status: 201, body: { filePath: "/uploads/s.jpg" } };
    api.routes[`POST ${B}/CreateBusiness`] = { status: 201, body: ROSIES_CORNER_BAKERY };
    api.routes[`GET ${B}/GetMyBusinesses`] = { body: [ROSIES_CORNER_BAKERY] };
    api.routes[`GET ${B}/GetMySubscriberCounts`] = { body: [] };
    const view = open("/businesses/add");
    await waitFor(() => expect(view.container.querySelectorAll("select[name=businessTypeId] option").length).toBe(2));
    type(view, "Business Name", "Rosie's Corner Bakery");
    fireEvent.change(view.getByLabelText("Business Type"), { target: { value: "1" } });
    type(view, "Address", "12 Baker Street, Springfield");
    type(view, "Phone", "(217) 555-0134");
    type(view, "Sample Product", "Sourdough loaf");
    await chooseSample(view);
    await act(async () => {
      fireEvent.click(view.getByRole("button", { name: "Create Business" }));
    });
    await waitFor(() => expect(view.at()).toBe("/my-business"));
    expect(toasts.value.map((t) => [t.type, t.title, t.message])).toEqual([["success", CREATED_TITLE, createdText("Rosie's Corner Bakery")]]);
    await waitFor(() => expect(view.getByRole("heading", { level: 1 }).textContent).toBe("My Business"));
    expect(api.paths()).not.toContain(`GET ${B}/ListBusinesses`);
  });

  test("an untouched form: a nav tap just goes", async () => {
    const view = open("/businesses/add");
    await waitFor(() => expect(view.container.querySelectorAll("select[name=businessTypeId] option").length).toBe(2));
    // Untouched: nothing to lose, so the link just goes.
    fireEvent.click(view.getByRole("link", { name: "Customers" }));
    expect(view.at()).toBe("/customers");
  });

  test("edited form: Customers asks; Stay keeps the text; Cancel asks too; Leave goes", async () => {
    api.routes[`GET ${B}/GetBusinessById`] = { body: ROSIES_CORNER_BAKERY };
    const view = open("/businesses/edit/42");
    await waitFor(() => expect((view.queryByLabelText("Business Name") as HTMLInputElement | null)?.value).toBe(ROSIES_CORNER_BAKERY.name));
    // Loaded but unchanged: not dirty.
    const e = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(e);
    expect(e.defaultPrevented).toBe(false);
    type(view, "Address", "14 Baker Street, Springfield");
    const unload = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);
    fireEvent.click(view.getByRole("link", { name: "Customers" }));
    expect(view.getByRole("dialog", { name: LEAVE_TITLE })).toBeTruthy();
    fireEvent.click(view.getByRole("button", { name: "Stay" }));
    expect(view.at()).toBe("/businesses/edit/42");
    expect((view.getByLabelText("Address") as HTMLInputElement).value).toBe("14 Baker Street, Springfield");
    fireEvent.click(view.getByRole("link", { name: "Cancel" }));
    expect(view.getByRole("dialog", { name: LEAVE_TITLE })).toBeTruthy();
    api.routes[`GET ${B}/GetMyBusinesses`] = { body: [] };
    await act(async () => {
      fireEvent.click(view.getByRole("button", { name: "Leave" }));
    });
    expect(view.at()).toBe("/my-business");
  });
});

describe("Delete a business", () => {
  test("3,004 subscribers: the dialog says how many people and that posters stop working; the name must be typed", async () => {
    api.routes[`GET ${B}/GetMyBusinesses`] = { body: [ROSIES_CORNER_BAKERY] };
    api.routes[`GET ${B}/GetMySubscriberCounts`] = { body: [{ businessId: 42, subscribers: 3004 }] };
    api.routes[`DELETE ${B}/DeleteBusiness`] = { body: { message: "Business deleted." } };
    const view = open("/my-business");
    await waitFor(() => expect(view.queryByText("3,004 subscribers") !== null).toBe(true));
    fireEvent.click(view.getByRole("button", { name: /Delete Rosie/ }));
    const dialog = view.getByRole("dialog", { name: "Delete Rosie's Corner Bakery?" });
    expect(view.getByTestId("delete-who").textContent).toBe("3,004 people are subscribed to Rosie's Corner Bakery. They all get no more texts from it.");
    expect(dialog.textContent).toContain(POSTERS_STOP);
    const go = view.getByRole("button", { name: "Delete business" }) as HTMLButtonElement;
    expect(go.disabled).toBe(true);
    const field = view.getByLabelText(/Type Rosie's Corner Bakery to confirm/);
    fireEvent.change(field, { target: { value: "Rosie's" } });
    expect(go.disabled).toBe(true);
    fireEvent.change(field, { target: { value: "Rosie's Corner Bakery" } });
    expect(go.disabled).toBe(false);
    expect(api.confirms).toEqual([]);
    api.routes[`GET ${B}/GetMyBusinesses`] = { body: [] };
    await act(async () => {
      fireEvent.click(go);
    });
    await waitFor(() => expect(api.paths()).toContain(`DELETE ${B}/DeleteBusiness`));
  });

  test("a small list: a clear Delete button, no name to type", async () => {
    api.routes[`GET ${B}/GetMyBusinesses`] = { body: [ROSIES_CORNER_BAKERY] };
    api.routes[`GET ${B}/GetMySubscriberCounts`] = { body: [{ businessId: 42, subscribers: 1 }] };
    const view = open("/my-business");
    await waitFor(() => expect(view.queryByText("1 subscriber") !== null).toBe(true));
    fireEvent.click(view.getByRole("button", { name: /Delete Rosie/ }));
    expect(view.getByTestId("delete-who").textContent).toBe("1 person is subscribed to Rosie's Corner Bakery. They get no more texts from it.");
    expect(view.queryByLabelText(/to confirm/)).toBeNull();
    expect((view.getByRole("button", { name: "Delete business" }) as HTMLButtonElement).disabled).toBe(false);
  });
});
