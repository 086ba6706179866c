// First run in the browser (issue 9): the Setup screen creates the first admin and logs it in; while the server has
// no admin, every screen but the customer's goes to /setup, and /setup goes home once it has one. Since issue 21 it
// sends the setup code from its link (?code=, kept out of sight) or asks for it, and the public URL it was opened at.
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/setup-page.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { TOKEN_KEY } from "../../web/shared/api/client.ts";
import { Routes } from "../../web/app.tsx";
import { screens } from "../../web/screens.ts";
import { Toasts } from "../../web/shared/components/Toasts.tsx";
import { clearSession, currentUser, token } from "../../web/shared/state/session.ts";
import { site } from "../../web/shared/state/site.ts";
import { toasts } from "../../web/shared/state/toasts.ts";
import { mockApi, siteInfo } from "../helpers/mock-api.ts";

const api = mockApi();

const ADMIN = { id: 1, email: "grace@shop.example", firstName: "Grace", lastName: "Hopper", role: "admin", createdAt: "2026-01-01T00:00:00.000Z" };
const ALREADY_DONE = "Setup is already done: log in, or ask your admin.";

beforeEach(() => {
  localStorage.clear();
  clearSession();
  toasts.value = [];
  site.value = siteInfo({ setupNeeded: true });
  // The screens behind the routes load their lists; an empty one will do.
  api.fallback = { body: [] };
  api.routes["GET /api/business/ListBusinesses"] = { body: { items: [], nextCursor: null, total: 0 } };
  // The admin's home (where setup ends) loads the setup checklist.
  api.routes["GET /api/settings/Checklist"] = { body: { items: [] } };
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  clearSession();
  toasts.value = [];
  site.value = null;
});

function renderRoutes(path: string) {
  const location = memoryLocation({ path, record: true });
  const view = render(
    <Router hook={location.hook}>
      <Routes screens={screens} />
      <Toasts />
    </Router>,
  );
  return { ...view, location, at: () => location.history?.at(-1) };
}

type View = ReturnType<typeof renderRoutes>;

function fill(view: View, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) fireEvent.change(view.getByLabelText(label), { target: { value } });
}

const submit = (view: View) => fireEvent.submit(view.getByRole("form", { name: "Set up" }));
const toastTexts = (view: View) =>
  [...view.container.querySelectorAll(".toast")].map((t) => `${t.querySelector(".toast-title")?.textContent}: ${t.querySelector(".toast-message")?.textContent}`);

const GOOD = { "First name": "Grace", "Last name": "Hopper", Email: "grace@shop.example", Password: "s3cret-pass" };
/** The setup link serve prints. */
const LINKED = "/setup?code=c0de-from_the-link";

describe("the Setup screen", () => {
  test("says what it does, asks name, email and password; has its own title; the link's code stays out of sight", async () => {
    const view = renderRoutes(LINKED);
    expect(view.getByRole("heading", { level: 1 }).textContent).toBe("Set up this server");
    expect(view.container.textContent).toContain("This creates the first admin account of this Nearcast server.");
    for (const label of ["First name", "Last name", "Email", "Password"]) expect(view.getByLabelText(label)).toBeTruthy();
    expect(view.queryByLabelText("Setup code")).toBeNull();
    expect(view.container.textContent).not.toContain("c0de-from_the-link");
    expect(view.getByRole("button", { name: "Create Admin Account" })).toBeTruthy();
    expect(document.title).toBe("Set Up · Nearcast");
  });

  test("an empty submit names every field and sends nothing", () => {
    const view = renderRoutes(LINKED);
    submit(view);
    const errors = [...view.container.querySelectorAll(".field-error")].map((e) => e.textContent);
    expect(errors).toEqual(["First name is required", "Last name is required", "Email is required", "Password is required"]);
    expect(api.calls).toEqual([]);
  });

  test("success: posts the account, keeps the session, reloads the site's facts and goes home", async () => {
    api.routes["POST /api/setup"] = { status: 201, body: { token: "tok-123", user: ADMIN } };
    api.routes["GET /api/site"] = { body: siteInfo({ setupNeeded: false }) };
    const view = renderRoutes(LINKED);
    fill(view, GOOD);
    submit(view);
    await waitFor(() => expect(view.at()).toBe("/"));
    expect(api.paths().slice(0, 2)).toEqual(["POST /api/setup", "GET /api/site"]);
    // The code from the link, and the address this page was opened at as the public URL.
    expect(api.calls[0]!.body).toEqual({
      firstName: "Grace",
      lastName: "Hopper",
      email: "grace@shop.example",
      password: "s3cret-pass",
      code: "c0de-from_the-link",
      publicUrl: "http://localhost:3000",
    });
    expect(token.value).toBe("tok-123");
    expect(localStorage.getItem(TOKEN_KEY)).toBe("tok-123");
    expect(currentUser.value?.role).toBe("admin");
    expect(site.value?.setupNeeded).toBe(false);
    expect(toastTexts(view)).toContain("Setup Complete: Welcome, Grace! You are the admin of this server.");
  });

  test("success even when reloading the site's facts fails: setup counts as done, no loop back to /setup", async () => {
    api.routes["POST /api/setup"] = { status: 201, body: { token: "tok-123", user: ADMIN } };
    api.routes["GET /api/site"] = { network: true };
    const view = renderRoutes(LINKED);
    fill(view, GOOD);
    submit(view);
    await waitFor(() => expect(view.at()).toBe("/"));
    await act(async () => {});
    expect(view.at()).toBe("/");
    expect(site.value?.setupNeeded).toBe(false);
  });

  test("409 (someone finished setup first): the server's sentence, no session, and /setup then goes home", async () => {
    api.routes["POST /api/setup"] = { status: 409, body: { code: "conflict", error: ALREADY_DONE } };
    api.routes["GET /api/site"] = { body: siteInfo({ setupNeeded: false }) };
    const view = renderRoutes(LINKED);
    fill(view, GOOD);
    submit(view);
    await waitFor(() => expect(toastTexts(view)).toContain(`Setup Failed: ${ALREADY_DONE}`));
    expect(token.value).toBeNull();
    await waitFor(() => expect(view.at()).toBe("/"));
  });

  test("400: the server's sentence naming the field", async () => {
    api.routes["POST /api/setup"] = {
      status: 400,
      body: { code: "validation_failed", error: "Please enter a valid email address", fields: { email: "Please enter a valid email address" } },
    };
    const view = renderRoutes(LINKED);
    fill(view, GOOD);
    submit(view);
    await waitFor(() => expect(toastTexts(view)).toContain("Setup Failed: Please enter a valid email address"));
    expect(token.value).toBeNull();
    expect(view.at()).toBe(LINKED);
  });
});

describe("the setup code and the public URL (issue 21)", () => {
  const WRONG = "This setup code is not valid: open the newest setup link; the setup link is printed in the terminal where nearcast serve runs, and in its log (journalctl -u nearcast).";

  test("without a code in the address it asks for one and says where to find it; an empty one is not sent", () => {
    const view = renderRoutes("/setup");
    const field = view.getByLabelText("Setup code") as HTMLInputElement;
    expect(field.value).toBe("");
    expect(view.container.textContent).toContain(
      "The setup link is printed in the terminal where nearcast serve runs, and in its log (journalctl -u nearcast). Open that link, or paste its code here.",
    );
    fill(view, GOOD);
    submit(view);
    expect(view.container.querySelector(".field-error")?.textContent).toBe("Setup code is required");
    expect(api.calls).toEqual([]);
  });

  test("a code typed in is sent (trimmed)", async () => {
    api.routes["POST /api/setup"] = { status: 201, body: { token: "tok-123", user: ADMIN } };
    api.routes["GET /api/site"] = { body: siteInfo({ setupNeeded: false }) };
    const view = renderRoutes("/setup");
    fill(view, { ...GOOD, "Setup code": "  typed-code  " });
    submit(view);
    await waitFor(() => expect(view.at()).toBe("/"));
    expect(api.calls[0]!.body).toMatchObject({ code: "typed-code" });
  });

  test("403 for the link's code (an old link): the code field appears with the server's sentence, no session", async () => {
    api.routes["POST /api/setup"] = { status: 403, body: { code: "setup_code_invalid", error: WRONG, fields: { code: WRONG } } };
    const view = renderRoutes(LINKED);
    fill(view, GOOD);
    submit(view);
    await waitFor(() => expect(view.queryByLabelText("Setup code")).not.toBeNull());
    expect(view.container.querySelector(".field-error")?.textContent).toBe(WRONG);
    expect(toastTexts(view)).toContain(`Setup Failed: ${WRONG}`);
    expect(token.value).toBeNull();
    expect(view.at()).toBe(LINKED);
  });

  test("the public URL field holds this page's address, warns when phones outside cannot open it, and the admin may change it", async () => {
    api.routes["POST /api/setup"] = { status: 201, body: { token: "tok-123", user: ADMIN } };
    api.routes["GET /api/site"] = { body: siteInfo({ setupNeeded: false }) };
    const view = renderRoutes(LINKED);
    const field = view.getByLabelText("Public URL") as HTMLInputElement;
    expect(field.value).toBe("http://localhost:3000");
    expect(view.container.textContent).toContain("Phones outside this network cannot open this link");
    fill(view, { ...GOOD, "Public URL": "https://deals.example.com" });
    expect(view.container.textContent).not.toContain("Phones outside this network cannot open this link");
    submit(view);
    await waitFor(() => expect(view.at()).toBe("/"));
    expect(api.calls[0]!.body).toMatchObject({ publicUrl: "https://deals.example.com" });
  });

  test("a public URL that is not an address is named before anything is sent", () => {
    const view = renderRoutes(LINKED);
    fill(view, { ...GOOD, "Public URL": "deals dot example" });
    submit(view);
    expect(view.container.querySelector(".field-error")?.textContent).toBe("Public URL must be an http:// or https:// address, without a query or fragment");
    expect(api.calls).toEqual([]);
  });

  test("an address saved before setup is the one offered; NEARCAST_PUBLIC_URL hides the field and none is sent", async () => {
    site.value = siteInfo({ setupNeeded: true, publicUrl: "https://saved.example.com", publicUrlSource: "saved", publicUrlPrivate: false });
    const saved = renderRoutes(LINKED);
    expect((saved.getByLabelText("Public URL") as HTMLInputElement).value).toBe("https://saved.example.com");
    cleanup();
    site.value = siteInfo({ setupNeeded: true, publicUrl: "https://env.example.org", publicUrlSource: "env", publicUrlPrivate: false });
    api.routes["POST /api/setup"] = { status: 201, body: { token: "tok-123", user: ADMIN } };
    api.routes["GET /api/site"] = { body: siteInfo({ setupNeeded: false }) };
    const view = renderRoutes(LINKED);
    expect(view.queryByLabelText("Public URL")).toBeNull();
    fill(view, GOOD);
    submit(view);
    await waitFor(() => expect(view.at()).toBe("/"));
    expect(api.calls[0]!.body).toMatchObject({ code: "c0de-from_the-link", publicUrl: "" });
  });
});

describe("the first-run redirect", () => {
  for (const path of ["/", "/login", "/register", "/about", "/customers", "/my-business", "/business-types", "/businesses/add"]) {
    test(`while setup is due, ${path} goes to /setup`, async () => {
      const view = renderRoutes(path);
      await act(async () => {});
      expect(view.at()).toBe("/setup");
      expect(view.getByRole("form", { name: "Set up" })).toBeTruthy();
    });
  }

  for (const path of ["/subscribe?id=3", "/businesses", "/print/3", "/faq", "/privacy", "/terms"]) {
    test(`while setup is due, the customer's ${path} stays`, async () => {
      api.routes["GET /api/business/GetBusinessById"] = { status: 404, body: { code: "not_found", error: "Business not found." } };
      const view = renderRoutes(path);
      await act(async () => {});
      expect(view.at()).toBe(path);
      expect(view.queryByRole("form", { name: "Set up" })).toBeNull();
    });
  }

  test("once setup is done, /setup goes home and the other screens stay", async () => {
    site.value = siteInfo({ setupNeeded: false });
    const view = renderRoutes("/setup");
    await act(async () => {});
    expect(view.at()).toBe("/");
    cleanup();
    const about = renderRoutes("/about");
    await act(async () => {});
    expect(about.at()).toBe("/about");
  });

  test("before the server has answered, no screen moves (the form shows at /setup)", async () => {
    site.value = null;
    const view = renderRoutes("/about");
    await act(async () => {});
    expect(view.at()).toBe("/about");
    cleanup();
    const setup = renderRoutes("/setup");
    expect(setup.at()).toBe("/setup");
    expect(setup.getByRole("form", { name: "Set up" })).toBeTruthy();
  });

  test("the answer arriving while a screen shows moves it to /setup", async () => {
    site.value = null;
    const view = renderRoutes("/about");
    await act(async () => {
      site.value = siteInfo({ setupNeeded: true });
    });
    expect(view.at()).toBe("/setup");
  });
});
