// Business type admin screens on happy-dom, with fetch mocked at the global (the only thing web/shared/api/client.ts calls).
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/business-types/business-type-form.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, waitFor } from "@testing-library/react";
import { BusinessTypeFormPage } from "../../../web/features/business-types/BusinessTypeForm.tsx";
import { BusinessTypesListPage } from "../../../web/features/business-types/BusinessTypesList.tsx";
import { type Answer, mockApi, onePage } from "../../helpers/mock-api.ts";
import { captureConsoleErrors } from "../console-errors.ts";
import { renderAt as renderScreens } from "../render-at.tsx";

const api = mockApi();
const { calls, routes: replies, alerts, confirms } = api;
// Inside waitFor, assert on booleans: a failing expect() on a DOM node pretty-prints the whole node graph (seconds).
const logged = captureConsoleErrors();

beforeEach(() => {
  document.cookie = "XSRF-TOKEN=xsrf-123";
  localStorage.setItem("token", "admin-token");
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// The list screen reads ListBusinessTypes a page at a time.
const LIST = "/api/businesstype/ListBusinessTypes";
const LIST_URL = `${LIST}?limit=24`;
const GET = "/api/businesstype/GetBusinessTypeById";
const CREATE = "/api/businesstype/CreateBusinessType";
const UPDATE = "/api/businesstype/UpdateBusinessType";
const DELETE = "/api/businesstype/DeleteBusinessType";

const bakery = { id: 7, name: "Bakery", description: "Bread and cakes", isActive: true, createdAt: "2026-03-05T12:00:00.000Z" };
const florist = { id: 8, name: "Florist", description: "", isActive: false, createdAt: "2026-11-22T12:00:00.000Z" };

const renderAt = (path: string) =>
  renderScreens(path, {
    "/business-types": BusinessTypesListPage,
    "/business-types/add": BusinessTypeFormPage,
    "/business-types/edit/:id": BusinessTypeFormPage,
  });

const type = (el: Element, value: string) => fireEvent.change(el, { target: { value } });
const submitButton = (view: ReturnType<typeof renderAt>) =>
  view.getByRole("button", { name: /(Create|Update) Business Type|Saving/ }) as HTMLButtonElement;

describe("add business type", () => {
  test("starts empty, active, with 0/500 and the submit disabled", () => {
    const view = renderAt("/business-types/add");
    expect(view.getByRole("heading", { level: 1 }).textContent).toBe("Add Business Type");
    expect((view.getByLabelText("Name") as HTMLInputElement).value).toBe("");
    expect((view.getByLabelText("Description") as HTMLTextAreaElement).value).toBe("");
    expect((view.getByLabelText(/Active/) as HTMLInputElement).checked).toBe(true);
    expect(view.getByText("0/500")).toBeTruthy();
    expect(submitButton(view).disabled).toBe(true);
    expect(submitButton(view).textContent).toBe("Create Business Type");
    expect(calls).toEqual([]);
  });

  test("name validation texts come from the schema, shown once the field was left", () => {
    const view = renderAt("/business-types/add");
    const name = view.getByLabelText("Name");
    expect(view.queryByRole("alert")).toBeNull();
    fireEvent.blur(name);
    expect(view.getByRole("alert").textContent).toBe("Business type name is required");
    expect(name.getAttribute("aria-invalid")).toBe("true");

    type(name, "B");
    expect(view.getByRole("alert").textContent).toBe("Name must be at least 2 characters long");
    expect(submitButton(view).disabled).toBe(true);

    type(name, "   ");
    expect(view.getByRole("alert").textContent).toBe("Business type name is required");

    type(name, "n".repeat(101));
    expect(view.getByRole("alert").textContent).toBe("Name cannot exceed 100 characters");
    expect(submitButton(view).disabled).toBe(true);

    type(name, "Bakery");
    expect(view.queryByRole("alert")).toBeNull();
    expect(name.getAttribute("aria-invalid")).toBe("false");
    expect(submitButton(view).disabled).toBe(false);
  });

  test("the description counter follows every keystroke and flags going over 500", () => {
    const view = renderAt("/business-types/add");
    type(view.getByLabelText("Name"), "Bakery");
    const description = view.getByLabelText("Description");
    type(description, "Fresh");
    expect(view.getByText("5/500")).toBeTruthy();
    type(description, "d".repeat(500));
    expect(view.getByText("500/500").className).not.toContain("over");
    expect(submitButton(view).disabled).toBe(false);

    type(description, "d".repeat(501));
    const counter = view.getByText("501/500");
    expect(counter.className).toContain("over");
    expect(submitButton(view).disabled).toBe(true);
    fireEvent.blur(description);
    expect(view.getByRole("alert").textContent).toBe("Description cannot exceed 500 characters");
    // the counter is announced politely, the error is tied to the field
    expect(counter.getAttribute("aria-live")).toBe("polite");
    expect(description.getAttribute("aria-describedby")).toContain(view.getByRole("alert").id);
  });

  test("a successful create sends the trimmed body with the XSRF header and goes back to the list", async () => {
    replies[`POST ${CREATE}`] = { status: 201, body: { ...bakery, isActive: false } };
    replies[`GET ${LIST}`] = { body: onePage([{ ...bakery, isActive: false }]) };
    const view = renderAt("/business-types/add");
    type(view.getByLabelText("Name"), "  Bakery ");
    type(view.getByLabelText("Description"), " Bread and cakes ");
    fireEvent.click(view.getByLabelText(/Active/));
    fireEvent.click(submitButton(view));

    await waitFor(() => expect(view.at()).toBe("/business-types"));
    const post = calls.find((c) => c.method === "POST");
    expect(post).toBeDefined();
    expect(post?.url).toBe(CREATE);
    expect(post?.body).toEqual({ name: "Bakery", description: "Bread and cakes", isActive: false });
    expect(post?.headers["content-type"]).toBe("application/json");
    expect(post?.headers["x-xsrf-token"]).toBe("xsrf-123");
    expect(post?.headers.authorization).toBe("Bearer admin-token");
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(1);
    expect(alerts).toEqual([]);
    // the list it lands on shows the new type
    await view.findByText("Bread and cakes");
  });

  test("while saving the button says so and a second click sends nothing", async () => {
    let release: () => void = () => {};
    replies[`POST ${CREATE}`] = () => new Promise<Answer>((resolve) => (release = () => resolve({ status: 201, body: bakery })));
    replies[`GET ${LIST}`] = { body: onePage([]) };
    const view = renderAt("/business-types/add");
    type(view.getByLabelText("Name"), "Bakery");
    fireEvent.click(submitButton(view));
    await waitFor(() => expect(submitButton(view).textContent).toBe("Saving..."));
    expect(submitButton(view).disabled).toBe(true);
    fireEvent.submit(view.getByRole("form"));
    await act(async () => release());
    await waitFor(() => expect(view.at()).toBe("/business-types"));
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(1);
  });

  test("a duplicate name (409) alerts the server's sentence and keeps the form", async () => {
    replies[`POST ${CREATE}`] = { status: 409, body: { error: "A business type with this name already exists.", code: "conflict" } };
    const view = renderAt("/business-types/add");
    type(view.getByLabelText("Name"), "bakery");
    fireEvent.click(submitButton(view));
    await waitFor(() => expect(alerts).toEqual(["A business type with this name already exists."]));
    expect(view.at()).toBe("/business-types/add");
    expect((view.getByLabelText("Name") as HTMLInputElement).value).toBe("bakery");
    expect(submitButton(view).disabled).toBe(false);
  });

  test("any other failure alerts the spec's create sentence", async () => {
    replies[`POST ${CREATE}`] = { status: 500, body: { error: "Something went wrong on our side. Please try again.", code: "internal" } };
    const view = renderAt("/business-types/add");
    type(view.getByLabelText("Name"), "Bakery");
    fireEvent.click(submitButton(view));
    await waitFor(() => expect(alerts).toEqual(["Error creating business type. Please try again."]));
    expect(view.at()).toBe("/business-types/add");
  });

  test("a submit while invalid sends nothing and shows every error", () => {
    const view = renderAt("/business-types/add");
    fireEvent.submit(view.getByRole("form"));
    expect(view.getByRole("alert").textContent).toBe("Business type name is required");
    expect(calls).toEqual([]);
  });
});

describe("edit business type", () => {
  test("loads the record, then sends the changes to UpdateBusinessType?id= and goes back", async () => {
    replies[`GET ${GET}`] = { body: bakery };
    replies[`PUT ${UPDATE}`] = { body: { ...bakery, name: "Bread & Cakes" } };
    replies[`GET ${LIST}`] = { body: onePage([]) };
    const view = renderAt("/business-types/edit/7");
    expect(view.getByRole("heading", { level: 1 }).textContent).toBe("Edit Business Type");
    const name = (await view.findByDisplayValue("Bakery")) as HTMLInputElement;
    expect(calls[0]?.url).toBe(`${GET}?id=7`);
    expect((view.getByLabelText("Description") as HTMLTextAreaElement).value).toBe("Bread and cakes");
    expect(view.getByText("15/500")).toBeTruthy();
    expect(submitButton(view).textContent).toBe("Update Business Type");

    type(name, "Bread & Cakes");
    fireEvent.click(submitButton(view));
    await waitFor(() => expect(view.at()).toBe("/business-types"));
    const put = calls.find((c) => c.method === "PUT");
    expect(put?.url).toBe(`${UPDATE}?id=7`);
    expect(put?.body).toEqual({ name: "Bread & Cakes", description: "Bread and cakes", isActive: true });
  });

  test("a record that cannot be loaded sends the admin back to the list", async () => {
    replies[`GET ${GET}`] = { status: 404, body: { error: "Business type not found.", code: "not_found" } };
    replies[`GET ${LIST}`] = { body: onePage([]) };
    const view = renderAt("/business-types/edit/99");
    await waitFor(() => expect(view.at()).toBe("/business-types"));
    expect(alerts).toEqual([]);
  });

  test("a failed update alerts the spec's update sentence; a 409 the server's", async () => {
    replies[`GET ${GET}`] = { body: bakery };
    let status = 500;
    replies[`PUT ${UPDATE}`] = () =>
      status === 409
        ? { status, body: { error: "A business type with this name already exists.", code: "conflict" } }
        : { status, body: { error: "boom", code: "internal" } };
    const view = renderAt("/business-types/edit/7");
    await view.findByDisplayValue("Bakery");
    fireEvent.click(submitButton(view));
    await waitFor(() => expect(alerts).toEqual(["Error updating business type. Please try again."]));
    status = 409;
    await waitFor(() => expect(submitButton(view).disabled).toBe(false));
    fireEvent.click(submitButton(view));
    await waitFor(() => expect(alerts).toHaveLength(2));
    expect(alerts[1]).toBe("A business type with this name already exists.");
    expect(view.at()).toBe("/business-types/edit/7");
  });
});

describe("business types list", () => {
  test("shows a spinner, then one row per type with its description, status and short date", async () => {
    replies[`GET ${LIST}`] = { body: onePage([bakery, florist]) };
    const view = renderAt("/business-types");
    expect(view.getByRole("status")).toBeTruthy();
    await view.findByText("Bakery");
    expect(view.queryByRole("status")).toBeNull();
    const rows = view.getAllByRole("row").slice(1);
    expect(rows).toHaveLength(2);
    const cells = (row: Element) => [...row.querySelectorAll("td")].map((td) => [td.dataset.label, td.textContent]);
    expect(cells(rows[0]!)).toEqual([
      ["Name", "Bakery"],
      ["Description", "Bread and cakes"],
      ["Status", "Active"],
      ["Created Date", "3/5/26"],
      ["Actions", "EditDelete"],
    ]);
    expect(cells(rows[1]!).slice(1, 3)).toEqual([
      ["Description", "No description"],
      ["Status", "Inactive"],
    ]);
    expect(view.getByRole("link", { name: "Edit Bakery" }).getAttribute("href")).toBe("/business-types/edit/7");
    expect(view.getByRole("link", { name: /Add Business Type/ }).getAttribute("href")).toBe("/business-types/add");
  });

  test("no types: the empty state with a way to add one", async () => {
    replies[`GET ${LIST}`] = { body: onePage([]) };
    const view = renderAt("/business-types");
    await view.findByText("No business types found.");
    expect(view.getByRole("link", { name: "Add the first one" }).getAttribute("href")).toBe("/business-types/add");
  });

  test("a failed load is logged only, and the spinner stops", async () => {
    replies[`GET ${LIST}`] = { status: 500, body: { error: "boom", code: "internal" } };
    const view = renderAt("/business-types");
    await waitFor(() => expect(view.queryByRole("status") === null).toBe(true));
    expect(logged).toHaveLength(1);
    expect(alerts).toEqual([]);
  });

  test("delete asks, naming the type, then reloads the list", async () => {
    let list = [bakery, florist];
    replies[`GET ${LIST}`] = () => ({ body: onePage(list) });
    replies[`DELETE ${DELETE}`] = () => {
      list = [bakery];
      return { body: { message: "Business type deleted." } };
    };
    const view = renderAt("/business-types");
    fireEvent.click(await view.findByRole("button", { name: "Delete Florist" }));
    expect(confirms).toEqual(['Are you sure you want to delete the business type "Florist"?']);
    await waitFor(() => expect(view.queryByText("Florist") === null).toBe(true));
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${LIST_URL}`, `DELETE ${DELETE}?id=8`, `GET ${LIST_URL}`]);
    expect(alerts).toEqual([]);
  });

  test("declining the confirmation sends nothing", async () => {
    replies[`GET ${LIST}`] = { body: onePage([bakery]) };
    api.confirmAnswer = false;
    const view = renderAt("/business-types");
    fireEvent.click(await view.findByRole("button", { name: "Delete Bakery" }));
    expect(confirms).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });

  test("a type in use (409) alerts the server's reason; other failures the spec's sentence", async () => {
    replies[`GET ${LIST}`] = { body: onePage([bakery]) };
    const inUse = '"Bakery" is used by 2 businesses and cannot be deleted. Mark it inactive instead.';
    let status = 409;
    replies[`DELETE ${DELETE}`] = () => ({ status, body: { error: status === 409 ? inUse : "boom", code: "x" } });
    const view = renderAt("/business-types");
    const button = (await view.findByRole("button", { name: "Delete Bakery" })) as HTMLButtonElement;
    fireEvent.click(button);
    await waitFor(() => expect(alerts).toEqual([inUse]));
    status = 500;
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    await waitFor(() => expect(alerts).toEqual([inUse, "Error deleting business type. Please try again."]));
    expect(view.getByText("Bakery")).toBeTruthy();
  });
});
