// The business form's Join Keyword field (issue 24, item 5): its hint, the schema's messages as it is typed, the
// stored keyword shown and sent back upper-case, and a keyword another business holds (the server's 409) shown under
// the field until it is changed. Fetch mocked at the global, like business-form.test.tsx.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, waitFor } from "@testing-library/react";
import { KEYWORD_FORMAT, KEYWORD_HINT, KEYWORD_TAKEN, keywordReserved } from "../../../src/schemas/join-keyword.ts";
import { BusinessFormPage, UPDATE_FAILED } from "../../../web/features/businesses/BusinessForm.tsx";
import { token } from "../../../web/shared/state/session.ts";
import { mockApi } from "../../helpers/mock-api.ts";
import { renderAt as renderScreens } from "../render-at.tsx";
import { ROSIES_CORNER_BAKERY } from "./business-fixtures.ts";

const api = mockApi();
const { calls, routes: replies, alerts } = api;
const realConsoleError = console.error;
const B = "/api/business";

beforeEach(() => {
  console.error = () => undefined;
  document.cookie = "XSRF-TOKEN=xsrf-123";
  localStorage.setItem("token", "owner-token");
  token.value = "owner-token";
  replies["GET /api/businesstype/GetAllBusinessTypes"] = { body: [{ id: 1, name: "Bakery", description: "", isActive: true, createdAt: "2026-01-01T00:00:00.000Z" }] };
  replies[`GET ${B}/GetBusinessById`] = { body: { ...ROSIES_CORNER_BAKERY, keyword: "BREAD" } };
});

afterEach(() => {
  cleanup();
  console.error = realConsoleError;
  localStorage.clear();
  token.value = null;
});

const renderEdit = () => renderScreens("/businesses/edit/42", { "/businesses/edit/:id": BusinessFormPage, "/businesses": () => <p>list</p> });
type View = ReturnType<typeof renderEdit>;
const field = (view: View) => view.getByLabelText("Join Keyword") as HTMLInputElement;
const errorOf = (view: View) => field(view).closest(".field")?.querySelector(".field-error")?.textContent ?? null;
const typeKeyword = (view: View, value: string) => {
  fireEvent.change(field(view), { target: { value } });
  fireEvent.blur(field(view));
};
const submit = (view: View) => act(async () => void fireEvent.click(view.getByRole("button", { name: /Update Business/ })));

describe("the Join Keyword field", () => {
  test("shows the stored keyword and its hint; the schema's messages as it is typed", async () => {
    const view = renderEdit();
    await waitFor(() => expect(field(view).value).toBe("BREAD"));
    expect(field(view).closest(".field")?.textContent).toContain(KEYWORD_HINT);
    typeKeyword(view, "b");
    expect(errorOf(view)).toBe(KEYWORD_FORMAT);
    typeKeyword(view, "hot bread");
    expect(errorOf(view)).toBe(KEYWORD_FORMAT);
    typeKeyword(view, "stop");
    expect(errorOf(view)).toBe(keywordReserved("STOP"));
    typeKeyword(view, "bagel");
    expect(errorOf(view)).toBeNull();
  });

  test("sent upper-case; cleared, sent as null", async () => {
    replies[`PUT ${B}/UpdateBusiness`] = { body: ROSIES_CORNER_BAKERY };
    const view = renderEdit();
    await waitFor(() => expect(field(view).value).toBe("BREAD"));
    typeKeyword(view, "bagel");
    await submit(view);
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")?.body).toMatchObject({ keyword: "BAGEL" }));
    cleanup();
    calls.length = 0;
    const again = renderEdit();
    await waitFor(() => expect(field(again).value).toBe("BREAD"));
    typeKeyword(again, "");
    await submit(again);
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")?.body).toMatchObject({ keyword: null }));
  });

  test("taken by another business (409): the reason under the field and in the alert, until the keyword changes", async () => {
    replies[`PUT ${B}/UpdateBusiness`] = { status: 409, body: { error: KEYWORD_TAKEN, code: "conflict", fields: { keyword: KEYWORD_TAKEN } } };
    const view = renderEdit();
    await waitFor(() => expect(field(view).value).toBe("BREAD"));
    typeKeyword(view, "gym");
    await submit(view);
    await waitFor(() => expect(alerts).toEqual([`${UPDATE_FAILED}\n\n${KEYWORD_TAKEN}`]));
    expect(errorOf(view)).toBe(KEYWORD_TAKEN);
    expect(view.at()).toBe("/businesses/edit/42");
    typeKeyword(view, "gyms");
    expect(errorOf(view)).toBeNull();
  });
});
