// Settings with unsaved edits: a nav tap asks first (the app's own dialog), the tab's unload asks too, and Save sits
// in a sticky bar. Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/settings/settings-unsaved.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, waitFor } from "@testing-library/react";
import { Link } from "wouter";
import { SETTING_ENV, SETTING_KEYS, SECRET_SETTINGS, type SettingsView } from "../../../src/schemas/settings.ts";
import { SettingsPage } from "../../../web/features/settings/SettingsPage.tsx";
import { LEAVE_TEXT, LEAVE_TITLE } from "../../../web/shared/components/useLeaveGuard.tsx";
import { mockApi } from "../../helpers/mock-api.ts";
import { renderAt } from "../render-at.tsx";

const api = mockApi();

/** Every setting unset (secrets too: nothing saved). */
const unsetView = () =>
  Object.fromEntries(SETTING_KEYS.map((key) => [key, { value: null, source: "unset", env: SETTING_ENV[key], secret: SECRET_SETTINGS.has(key), set: false }])) as SettingsView;

beforeEach(() => {
  localStorage.setItem("token", "admin-token");
  api.routes["GET /api/settings"] = { body: unsetView() };
  api.routes["GET /api/business/WhatsAppTemplates"] = { body: [] };
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

async function open() {
  const view = renderAt("/settings", { "/settings": SettingsPage, "/customers": <p>Customers screen</p> }, <Link href="/customers">Customers</Link>);
  await waitFor(() => {
    if (!view.queryByLabelText("Brand name")) throw new Error("not loaded");
  });
  return view;
}

/** Fires beforeunload as the browser does; true when the page asked to stay. */
function unloadAsks(): boolean {
  const e = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(e);
  return e.defaultPrevented;
}

describe("Settings: unsaved edits", () => {
  test("untouched: a nav tap just goes, and unloading does not ask", async () => {
    const view = await open();
    expect(unloadAsks()).toBe(false);
    fireEvent.click(view.getByRole("link", { name: "Customers" }));
    expect(view.at()).toBe("/customers");
  });

  test("edited: a nav tap opens the app's dialog; Stay keeps the edit on screen, Leave goes", async () => {
    const view = await open();
    fireEvent.change(view.getByLabelText("Brand name"), { target: { value: "Corner Deals" } });
    expect(unloadAsks()).toBe(true);
    fireEvent.click(view.getByRole("link", { name: "Customers" }));
    const dialog = view.getByRole("dialog", { name: LEAVE_TITLE });
    expect(dialog.textContent).toContain(LEAVE_TEXT);
    expect(view.at()).toBe("/settings");
    fireEvent.click(view.getByRole("button", { name: "Stay" }));
    expect(view.queryByRole("dialog")).toBeNull();
    expect((view.getByLabelText("Brand name") as HTMLInputElement).value).toBe("Corner Deals");
    expect(view.at()).toBe("/settings");

    fireEvent.click(view.getByRole("link", { name: "Customers" }));
    await act(async () => {
      fireEvent.click(view.getByRole("button", { name: "Leave" }));
    });
    expect(view.at()).toBe("/customers");
    expect(view.getByText("Customers screen")).toBeTruthy();
    expect(unloadAsks()).toBe(false);
  });

  test("Save sits in a sticky bar that says when there are unsaved changes", async () => {
    const view = await open();
    const bar = view.getByTestId("settings-save-bar");
    expect(bar.className).toContain("settings-actions");
    expect(bar.textContent).not.toContain("Unsaved changes");
    fireEvent.change(view.getByLabelText("Brand name"), { target: { value: "Corner Deals" } });
    expect(bar.textContent).toContain("Unsaved changes");
    expect(bar.className).toContain("is-dirty");
    const css = await Bun.file(new URL("../../../web/shared/styles/settings.css", import.meta.url)).text();
    const rule = css.slice(css.indexOf(".settings-actions {"), css.indexOf("}", css.indexOf(".settings-actions {")));
    expect(rule).toContain("position: sticky");
    expect(rule).toContain("bottom: 0");
  });
});
