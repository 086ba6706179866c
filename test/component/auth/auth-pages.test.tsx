// The four account screens (login, register, forgot and reset password) on happy-dom, with fetch mocked at the
// global (the only thing web/shared/api/client.ts calls).
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/auth/auth-pages.test.tsx
import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { act, cleanup, fireEvent, waitFor } from "@testing-library/react";
import { RESET_TOKEN_INVALID, RESET_TOKEN_MISSING } from "../../../src/schemas/auth.ts";
import { INVALID_LOGIN } from "../../../src/schemas/texts.ts";
import { CONNECTION_ERROR } from "../../../web/shared/api/client.ts";
import {
  FORGOT_DEFAULT,
  FORGOT_INVALID,
  LOGIN_DEFAULT,
  REGISTRATION_DEFAULT,
  REGISTRATION_INVALID,
  RESET_DEFAULT,
} from "../../../web/features/auth/error-messages.ts";
import { RequireAdmin, RequireAuth } from "../../../web/shared/components/Guards.tsx";
import { Toasts } from "../../../web/shared/components/Toasts.tsx";
import { FORGOT_REDIRECT_MS, ForgotPasswordPage } from "../../../web/features/auth/ForgotPassword.tsx";
import { LoginPage } from "../../../web/features/auth/Login.tsx";
import { RegisterPage } from "../../../web/features/auth/Register.tsx";
import { RESET_REDIRECT_MS, ResetPasswordPage } from "../../../web/features/auth/ResetPassword.tsx";
import { clearSession, currentUser } from "../../../web/shared/state/session.ts";
import { toasts } from "../../../web/shared/state/toasts.ts";
import { type Reply, mockApi } from "../../helpers/mock-api.ts";
import { renderAt as renderScreens } from "../render-at.tsx";

const api = mockApi();
const { calls } = api;
/** What each request carried, without its headers. */
const sent = () => calls.map(({ method, url, body }) => ({ method, url, body }));

const USER = { id: 7, email: "ana@shop.com", firstName: "Ana", lastName: "Lopez", role: "owner", createdAt: "2026-01-01T00:00:00.000Z" };

beforeEach(() => {
  api.fallback = { status: 200, body: {} };
  localStorage.clear();
  clearSession();
  toasts.value = [];
});

afterEach(() => {
  cleanup();
  jest.useRealTimers();
  localStorage.clear();
  clearSession();
  toasts.value = [];
});

const renderAt = (path: string) =>
  renderScreens(
    path,
    {
      "/login": LoginPage,
      "/register": RegisterPage,
      "/forgot-password": ForgotPasswordPage,
      "/reset-password": ResetPasswordPage,
      "/": <p>Home screen</p>,
    },
    <Toasts />,
  );

type View = ReturnType<typeof renderAt>;

function type(view: View, label: string, value: string) {
  fireEvent.change(view.getByLabelText(label), { target: { value } });
}

function submit(view: View) {
  const form = view.container.querySelector("form");
  if (!form) throw new Error("no form on screen");
  fireEvent.submit(form);
}

/** The text of every toast on screen, as "Title: message". */
function toastTexts(view: View): string[] {
  return [...view.container.querySelectorAll(".toast")].map(
    (t) => `${t.querySelector(".toast-title")?.textContent}: ${t.querySelector(".toast-message")?.textContent}`,
  );
}

async function waitForToast(view: View, text: string) {
  await waitFor(() => {
    if (!toastTexts(view).includes(text)) throw new Error(`no toast "${text}"; toasts: ${JSON.stringify(toastTexts(view))}`);
  });
}

/** Lets pending promises (the mocked fetch, response parsing, React updates) settle while timers are fake. */
async function flush(view: View, until: () => boolean) {
  for (let i = 0; i < 50 && !until(); i++) {
    await act(async () => {
      await new Promise<void>((r) => queueMicrotask(r));
    });
  }
  if (!until()) throw new Error(`condition not reached; screen:\n${view.container.textContent}`);
}

function fieldErrors(view: View): string[] {
  return [...view.container.querySelectorAll(".field-error")].map((e) => e.textContent ?? "");
}

function summary(view: View): HTMLElement | null {
  return [...view.container.querySelectorAll<HTMLElement>(".alert-error")].find((a) =>
    a.textContent?.includes("Please fix the following errors:"),
  ) ?? null;
}

/** Failure replies and the message each must produce, shared by the error-branch tables. */
const network: Reply = { network: true };

describe("Login", () => {
  test("an empty submit shows every validation text, the summary box and highlights, and sends nothing", () => {
    const view = renderAt("/login");
    expect(fieldErrors(view)).toEqual([]);
    expect(summary(view)).toBeNull();
    submit(view);
    expect(fieldErrors(view)).toEqual(["Email is required", "Password is required"]);
    const box = summary(view);
    expect(box).not.toBeNull();
    expect(box?.textContent).toContain("Email is required");
    expect(box?.textContent).toContain("Password is required");
    expect(view.getByLabelText("Email").getAttribute("aria-invalid")).toBe("true");
    expect(view.getByLabelText("Password").getAttribute("aria-invalid")).toBe("true");
    expect(view.getByLabelText("Email").closest(".field")?.classList.contains("has-error")).toBe(true);
    expect(document.activeElement).toBe(view.getByLabelText("Email"));
    expect(calls).toEqual([]);
  });

  test("an invalid email shows 'Please enter a valid email address' and sends nothing", () => {
    const view = renderAt("/login");
    type(view, "Email", "not-an-email");
    type(view, "Password", "whatever");
    submit(view);
    expect(fieldErrors(view)).toEqual(["Please enter a valid email address"]);
    expect(summary(view)?.textContent).toContain("Please enter a valid email address");
    expect(document.activeElement).toBe(view.getByLabelText("Email"));
    expect(calls).toEqual([]);
  });

  test("a field's error shows once it is left, before any submit", () => {
    const view = renderAt("/login");
    fireEvent.blur(view.getByLabelText("Email"));
    expect(fieldErrors(view)).toEqual(["Email is required"]);
    expect(summary(view)).toBeNull();
  });

  test("success stores the token, shows the toast and goes home; the button is busy while in flight", async () => {
    let release!: () => void;
    api.fallback = () => new Promise((resolve) => (release = () => resolve({ status: 200, body: { token: "tok-123", user: USER } })));
    const view = renderAt("/login");
    type(view, "Email", "  Ana@Shop.com ");
    type(view, "Password", "secret1");
    submit(view);
    await waitFor(() => {
      if (calls.length !== 1) throw new Error("no request yet");
    });
    expect(sent()[0]).toEqual({ method: "POST", url: "/api/auth/Login", body: { email: "ana@shop.com", password: "secret1" } });
    const button = view.getByRole("button", { name: "Logging in..." });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.querySelector(".spinner")).not.toBeNull();
    submit(view); // a second submit while in flight is ignored
    expect(calls.length).toBe(1);

    release();
    await waitForToast(view, "Login Successful: Welcome back! You have been logged in successfully.");
    expect(localStorage.getItem("token")).toBe("tok-123");
    expect(currentUser.value?.email).toBe("ana@shop.com");
    expect(view.at()).toBe("/");
    expect(view.getByText("Home screen")).toBeTruthy();
  });

  async function logInAt(path: string) {
    api.fallback = { status: 200, body: { token: "tok-123", user: USER } };
    const view = renderAt(path);
    type(view, "Email", "ana@shop.com");
    type(view, "Password", "secret1");
    submit(view);
    await waitForToast(view, "Login Successful: Welcome back! You have been logged in successfully.");
    return view;
  }

  test("a guarded page sends the user to /login?next=<that page>, and login returns there", async () => {
    const view = renderScreens("/customers/edit/4?from=list", {
      "/customers/edit/:id": (
        <RequireAuth>
          <p>Edit customer screen</p>
        </RequireAuth>
      ),
      "/login": LoginPage,
    });
    expect(view.at()).toBe("/login?next=/customers/edit/4%3Ffrom%3Dlist");
    type(view, "Email", "ana@shop.com");
    type(view, "Password", "secret1");
    api.fallback = { status: 200, body: { token: "tok-123", user: USER } };
    submit(view);
    await waitFor(() => view.getByText("Edit customer screen"));
    expect(view.at()).toBe("/customers/edit/4?from=list");
  });

  test("the admin guard carries the page too", () => {
    const view = renderScreens("/business-types", {
      "/business-types": (
        <RequireAdmin>
          <p>Types</p>
        </RequireAdmin>
      ),
      "/login": <p>Login screen</p>,
    });
    expect(view.at()).toBe("/login?next=/business-types");
  });

  for (const next of ["//evil.com", "https://evil.com", "/%5Cevil.com", "/%09/evil.com", "evil", ""]) {
    test(`?next=${next} is not followed: login goes home`, async () => {
      const view = await logInAt(`/login?next=${next}`);
      expect(view.at()).toBe("/");
      expect(view.getByText("Home screen")).toBeTruthy();
    });
  }

  const cases: [string, Reply, string][] = [
    ["401", { status: 401, body: { error: "Some other server text", code: "unauthorized" } }, INVALID_LOGIN],
    ["status 0 (network failure)", network, CONNECTION_ERROR],
    ["400 with a server message", { status: 400, body: { error: "Email is required", code: "validation_failed" } }, "Email is required"],
    ["500 with a server message", { status: 500, body: { error: "Something went wrong on our side. Please try again.", code: "internal" } }, "Something went wrong on our side. Please try again."],
    ["500 without a server message", { status: 500 }, LOGIN_DEFAULT],
    ["500 with an HTML page", { status: 502, text: "<html><body>Bad gateway</body></html>" }, LOGIN_DEFAULT],
    ["429 with the server's wait message", { status: 429, body: { error: "Too many attempts. Please wait 15 minutes and try again.", code: "too_many_requests" } }, "Too many attempts. Please wait 15 minutes and try again."],
  ];
  for (const [name, r, message] of cases) {
    test(`failure, ${name}: toast 'Login Failed' / the spec's text, and the user stays`, async () => {
      api.fallback = r;
      const view = renderAt("/login");
      type(view, "Email", "ana@shop.com");
      type(view, "Password", "wrong-password");
      submit(view);
      await waitForToast(view, `Login Failed: ${message}`);
      expect(view.container.querySelector(".toast-error")).not.toBeNull();
      expect(localStorage.getItem("token")).toBeNull();
      expect(view.at()).toBe("/login");
      const button = view.getByRole("button", { name: "Login" }) as HTMLButtonElement;
      expect(button.disabled).toBe(false);
    });
  }

  test("links to forgot password and register", () => {
    const view = renderAt("/login");
    expect(view.getByRole("link", { name: "Forgot password?" }).getAttribute("href")).toBe("/forgot-password");
    expect(view.getByRole("link", { name: "Register" }).getAttribute("href")).toBe("/register");
  });

  test("autocomplete attributes and the show-password toggle", () => {
    const view = renderAt("/login");
    const password = view.getByLabelText("Password") as HTMLInputElement;
    expect(view.getByLabelText("Email").getAttribute("autocomplete")).toBe("email");
    expect(password.getAttribute("autocomplete")).toBe("current-password");
    expect(password.type).toBe("password");
    fireEvent.click(view.getByRole("button", { name: "Show password" }));
    expect(password.type).toBe("text");
    fireEvent.click(view.getByRole("button", { name: "Hide password" }));
    expect(password.type).toBe("password");
  });
});

describe("Register", () => {
  function fill(view: View, values: Partial<Record<"First name" | "Last name" | "Email" | "Password", string>>) {
    for (const [label, value] of Object.entries(values)) type(view, label, value);
  }

  test("an empty submit shows every validation text and the summary box, and sends nothing", () => {
    const view = renderAt("/register");
    submit(view);
    expect(fieldErrors(view)).toEqual(["First name is required", "Last name is required", "Email is required", "Password is required"]);
    const box = summary(view);
    for (const text of ["First name is required", "Last name is required", "Email is required", "Password is required"]) {
      expect(box?.textContent).toContain(text);
    }
    expect(document.activeElement).toBe(view.getByLabelText("First name"));
    expect(calls).toEqual([]);
  });

  test("a bad email and a short password show their texts and send nothing", () => {
    const view = renderAt("/register");
    fill(view, { "First name": "Ana", "Last name": "Lopez", Email: "ana@", Password: "12345" });
    submit(view);
    expect(fieldErrors(view)).toEqual(["Please enter a valid email address", "Password must be at least 6 characters"]);
    expect(summary(view)).not.toBeNull();
    expect(document.activeElement).toBe(view.getByLabelText("Email"));
    expect(calls).toEqual([]);
  });

  test("success: toast, then the login screen", async () => {
    // The server's one answer, whether or not the email already had an account (issue 10): a message, no user.
    api.fallback = { status: 201, body: { message: "Registration successful. Please log in." } };
    const view = renderAt("/register");
    fill(view, { "First name": " Ana ", "Last name": "Lopez", Email: "Ana@Shop.com", Password: "secret1" });
    submit(view);
    await waitForToast(
      view,
      "Registration Successful: Your account has been created successfully. Please login with your credentials.",
    );
    expect(sent()).toEqual([
      { method: "POST", url: "/api/auth/Register", body: { firstName: "Ana", lastName: "Lopez", email: "ana@shop.com", password: "secret1" } },
    ]);
    expect(view.at()).toBe("/login");
    expect(localStorage.getItem("token")).toBeNull();
  });

  test("the button shows a spinner and is disabled while in flight", async () => {
    let release!: () => void;
    api.fallback = () => new Promise((resolve) => (release = () => resolve({ status: 201, body: { message: "ok" } })));
    const view = renderAt("/register");
    fill(view, { "First name": "Ana", "Last name": "Lopez", Email: "ana@shop.com", Password: "secret1" });
    submit(view);
    const button = await view.findByRole("button", { name: "Creating account..." });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.querySelector(".spinner")).not.toBeNull();
    release();
    await waitFor(() => {
      if (view.at() !== "/login") throw new Error("not redirected yet");
    });
  });

  const cases: [string, Reply, string][] = [
    ["400 with the server's text", { status: 400, body: { error: "Please enter a valid email address", code: "validation_failed" } }, "Please enter a valid email address"],
    ["400 without a body", { status: 400 }, REGISTRATION_INVALID],
    [
      "429 registration limit: the server's sentence",
      { status: 429, body: { error: "Too many registrations from your network. Please wait 50 minutes and try again.", code: "too_many_requests" } },
      "Too many registrations from your network. Please wait 50 minutes and try again.",
    ],
    ["status 0 (network failure)", network, CONNECTION_ERROR],
    ["500 with a server message", { status: 500, body: { message: "Database is locked." } }, "Database is locked."],
    ["500 without a server message", { status: 500 }, REGISTRATION_DEFAULT],
  ];
  for (const [name, r, message] of cases) {
    test(`failure, ${name}: toast 'Registration Failed' / the spec's text`, async () => {
      api.fallback = r;
      const view = renderAt("/register");
      fill(view, { "First name": "Ana", "Last name": "Lopez", Email: "ana@shop.com", Password: "secret1" });
      submit(view);
      await waitForToast(view, `Registration Failed: ${message}`);
      expect(view.at()).toBe("/register");
      expect((view.getByRole("button", { name: "Create Account" }) as HTMLButtonElement).disabled).toBe(false);
    });
  }

  test("autocomplete attributes and the link to login", () => {
    const view = renderAt("/register");
    expect(view.getByLabelText("First name").getAttribute("autocomplete")).toBe("given-name");
    expect(view.getByLabelText("Last name").getAttribute("autocomplete")).toBe("family-name");
    expect(view.getByLabelText("Email").getAttribute("autocomplete")).toBe("email");
    expect(view.getByLabelText("Password").getAttribute("autocomplete")).toBe("new-password");
    expect(view.getByRole("link", { name: "Login" }).getAttribute("href")).toBe("/login");
  });
});

describe("Forgot password", () => {
  test("validation texts, and nothing is sent while invalid", () => {
    const view = renderAt("/forgot-password");
    submit(view);
    expect(fieldErrors(view)).toEqual(["Email is required"]);
    type(view, "Email", "nope");
    expect(fieldErrors(view)).toEqual(["Please enter a valid email address"]);
    submit(view);
    expect(calls).toEqual([]);
    expect(view.getByRole("link", { name: "Back to login" }).getAttribute("href")).toBe("/login");
  });

  test("success with a token: 'Email Sent' toast, the development notice with a reset link, /login after 3 s", async () => {
    jest.useFakeTimers();
    api.fallback = { status: 200, body: { message: "If an account exists for that email, password reset instructions have been sent.", token: "dev-token_42" } };
    const view = renderAt("/forgot-password");
    type(view, "Email", "Ana@Shop.com");
    submit(view);
    await flush(view, () => view.queryByText("Development mode") !== null);
    expect(sent()).toEqual([{ method: "POST", url: "/api/auth/ForgotPassword", body: { email: "ana@shop.com" } }]);
    expect(toastTexts(view)).toEqual(["Email Sent: If an account exists for that email, password reset instructions have been sent."]);
    expect(view.getByText("dev-token_42")).toBeTruthy();
    expect(view.getByRole("link", { name: "Reset password now" }).getAttribute("href")).toBe("/reset-password?token=dev-token_42");

    act(() => jest.advanceTimersByTime(FORGOT_REDIRECT_MS - 1));
    expect(view.at()).toBe("/forgot-password");
    act(() => jest.advanceTimersByTime(1));
    expect(FORGOT_REDIRECT_MS).toBe(3000);
    expect(view.at()).toBe("/login");
  });

  test("success without a token: no development notice", async () => {
    api.fallback = { status: 200, body: { message: "If an account exists for that email, password reset instructions have been sent." } };
    const view = renderAt("/forgot-password");
    type(view, "Email", "ana@shop.com");
    submit(view);
    await waitForToast(view, "Email Sent: If an account exists for that email, password reset instructions have been sent.");
    expect(view.queryByText("Development mode")).toBeNull();
  });

  test("following the development link before 3 s cancels the redirect to /login", async () => {
    jest.useFakeTimers();
    api.fallback = { status: 200, body: { message: "sent", token: "abc" } };
    const view = renderAt("/forgot-password");
    type(view, "Email", "ana@shop.com");
    submit(view);
    await flush(view, () => view.queryByText("Development mode") !== null);
    fireEvent.click(view.getByRole("link", { name: "Reset password now" }));
    expect(view.at()).toBe("/reset-password?token=abc");
    act(() => jest.advanceTimersByTime(5000));
    expect(view.at()).toBe("/reset-password?token=abc");
    expect(view.getByLabelText("New password")).toBeTruthy();
  });

  test("a server without email: its sentence as the error toast and on the page, never 'Email Sent'", async () => {
    const NO_EMAIL = "Email is not set up on this server, so no reset link can be sent. Ask the person who runs it to reset your password.";
    api.fallback = { status: 400, body: { error: NO_EMAIL, code: "email_not_configured" } };
    const view = renderAt("/forgot-password");
    type(view, "Email", "ana@shop.com");
    submit(view);
    await waitForToast(view, `Request Failed: ${NO_EMAIL}`);
    expect(toastTexts(view)).toEqual([`Request Failed: ${NO_EMAIL}`]);
    const note = view.getByRole("note", { name: "Email is not set up" });
    expect(note.textContent).toContain(NO_EMAIL);
    expect(view.queryByText(/Email Sent|Check your email/)).toBeNull();
    expect(view.at()).toBe("/forgot-password");
    // Another kind of failure takes the note away again.
    api.fallback = { status: 400, body: { error: "Please enter a valid email address", code: "validation_failed" } };
    submit(view);
    await waitForToast(view, "Request Failed: Please enter a valid email address");
    expect(view.queryByRole("note", { name: "Email is not set up" })).toBeNull();
  });

  test("a server without a public URL (issue 21): its sentence as the error toast and on the page", async () => {
    const NO_URL = "Email links need the server's public address; ask the person who runs it";
    api.fallback = { status: 400, body: { error: NO_URL, code: "public_url_not_set" } };
    const view = renderAt("/forgot-password");
    type(view, "Email", "ana@shop.com");
    submit(view);
    await waitForToast(view, `Request Failed: ${NO_URL}`);
    expect(view.getByRole("note", { name: "Email is not set up" }).textContent).toContain(NO_URL);
    expect(view.queryByText(/Email Sent|Check your email/)).toBeNull();
  });

  const cases: [string, Reply, string][] = [
    ["400 with the server's text", { status: 400, body: { error: "Please enter a valid email address", code: "validation_failed" } }, "Please enter a valid email address"],
    ["400 without a body", { status: 400 }, FORGOT_INVALID],
    ["status 0 (network failure)", network, CONNECTION_ERROR],
    ["500 with a server message (the default wins)", { status: 500, body: { error: "Internal thing", code: "internal" } }, FORGOT_DEFAULT],
    ["500 without a server message", { status: 500 }, FORGOT_DEFAULT],
    ["429 with the server's wait message", { status: 429, body: { error: "Too many attempts. Please wait 3 minutes and try again.", code: "too_many_requests" } }, "Too many attempts. Please wait 3 minutes and try again."],
  ];
  for (const [name, r, message] of cases) {
    test(`failure, ${name}: toast 'Request Failed' / the spec's text`, async () => {
      api.fallback = r;
      const view = renderAt("/forgot-password");
      type(view, "Email", "ana@shop.com");
      submit(view);
      await waitForToast(view, `Request Failed: ${message}`);
      expect(view.at()).toBe("/forgot-password");
      expect((view.getByRole("button", { name: "Send Reset Instructions" }) as HTMLButtonElement).disabled).toBe(false);
    });
  }
});

describe("Reset password", () => {
  test("without a token: the missing-token text, no form, nothing sent", () => {
    const view = renderAt("/reset-password");
    expect(view.getByText(RESET_TOKEN_MISSING)).toBeTruthy();
    expect(view.container.querySelector("form")).toBeNull();
    expect(view.queryByLabelText("New password")).toBeNull();
    expect(view.getByRole("link", { name: "Request a new reset link" }).getAttribute("href")).toBe("/forgot-password");
    expect(view.getByRole("link", { name: "Login" }).getAttribute("href")).toBe("/login");
    expect(calls).toEqual([]);
  });

  test("a blank token counts as missing", () => {
    const view = renderAt("/reset-password?token=%20");
    expect(view.getByText(RESET_TOKEN_MISSING)).toBeTruthy();
    expect(calls).toEqual([]);
  });

  test("validation texts: required, minimum length, confirm required, and 'Passwords do not match'; nothing sent", () => {
    const view = renderAt("/reset-password?token=abc");
    submit(view);
    expect(fieldErrors(view)).toEqual(["Password is required", "Confirm password is required"]);
    type(view, "New password", "12345");
    expect(fieldErrors(view)).toEqual(["Password must be at least 6 characters", "Confirm password is required"]);
    type(view, "New password", "secret1");
    type(view, "Confirm new password", "secret2");
    submit(view);
    expect(fieldErrors(view)).toEqual(["Passwords do not match"]);
    expect(document.activeElement).toBe(view.getByLabelText("Confirm new password"));
    expect(calls).toEqual([]);
  });

  test("success: sends token and new password, toast, /login after 2 s", async () => {
    jest.useFakeTimers();
    api.fallback = { status: 200, body: { message: "Your password has been reset. Please log in with your new password." } };
    const view = renderAt("/reset-password?token=tok%2Fxyz");
    type(view, "New password", "secret1");
    type(view, "Confirm new password", "secret1");
    submit(view);
    await flush(view, () => view.queryByText("Password changed") !== null);
    expect(sent()).toEqual([{ method: "POST", url: "/api/auth/ResetPassword", body: { token: "tok/xyz", newPassword: "secret1" } }]);
    expect(toastTexts(view)).toEqual(["Password Reset: Your password has been reset. Please log in with your new password."]);
    act(() => jest.advanceTimersByTime(RESET_REDIRECT_MS - 1));
    expect(view.at()).toBe("/reset-password?token=tok%2Fxyz");
    act(() => jest.advanceTimersByTime(1));
    expect(RESET_REDIRECT_MS).toBe(2000);
    expect(view.at()).toBe("/login");
  });

  const cases: [string, Reply, string][] = [
    ["400 with the server's text", { status: 400, body: { error: "Invalid or expired reset token. Please request a new password reset.", code: "validation_failed" } }, "Invalid or expired reset token. Please request a new password reset."],
    ["400 with another server text", { status: 400, body: { error: "Password must be at least 6 characters", code: "validation_failed" } }, "Password must be at least 6 characters"],
    ["400 without a body", { status: 400 }, RESET_TOKEN_INVALID],
    ["status 0 (network failure)", network, CONNECTION_ERROR],
    ["500 with a server message (the default wins)", { status: 500, body: { error: "Internal thing" } }, RESET_DEFAULT],
    ["500 without a server message", { status: 500 }, RESET_DEFAULT],
  ];
  for (const [name, r, message] of cases) {
    test(`failure, ${name}: toast 'Reset Failed' / the spec's text`, async () => {
      api.fallback = r;
      const view = renderAt("/reset-password?token=abc");
      type(view, "New password", "secret1");
      type(view, "Confirm new password", "secret1");
      submit(view);
      await waitForToast(view, `Reset Failed: ${message}`);
      expect(view.at()).toBe("/reset-password?token=abc");
      expect((view.getByRole("button", { name: "Reset Password" }) as HTMLButtonElement).disabled).toBe(false);
    });
  }
});
