// The Settings screen on happy-dom, with fetch mocked at the global (the only thing web/shared/api/client.ts calls).
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/settings/settings-page.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, waitFor } from "@testing-library/react";
import { UNREACHABLE_LINK_FIX, UNREACHABLE_LINK_WARNING } from "../../../src/schemas/public-url.ts";
import { SETTING_ENV, SETTING_KEYS, SECRET_SETTINGS, type SettingsView, type SiteInfo } from "../../../src/schemas/settings.ts";
import { NavBar } from "../../../web/shared/components/NavBar.tsx";
import { Toasts } from "../../../web/shared/components/Toasts.tsx";
import { TEST_EMAIL_FAILED, TEST_EMAIL_SENT } from "../../../web/features/settings/components/TestEmailButton.tsx";
import { NOT_SAVED_TITLE, SAVED_TITLE } from "../../../web/features/settings/SettingsForm.tsx";
import { SettingsPage } from "../../../web/features/settings/SettingsPage.tsx";
import { currentUser, token } from "../../../web/shared/state/session.ts";
import { site } from "../../../web/shared/state/site.ts";
import { toasts } from "../../../web/shared/state/toasts.ts";
import { type ApiCall, mockApi } from "../../helpers/mock-api.ts";
import { captureConsoleErrors } from "../console-errors.ts";
import { renderAt } from "../render-at.tsx";

const api = mockApi();
const { calls, routes: replies } = api;
const logged = captureConsoleErrors();

const SETTINGS = "/api/settings";

/** A view with every setting unset or default, then `overrides`. */
function viewWith(overrides: Partial<SettingsView> = {}): SettingsView {
  const base = Object.fromEntries(
    SETTING_KEYS.map((key) => [
      key,
      SECRET_SETTINGS.has(key)
        ? { value: null, source: "unset", env: SETTING_ENV[key], secret: true, set: false }
        : { value: null, source: "unset", env: SETTING_ENV[key], secret: false },
    ]),
  ) as SettingsView;
  base.brandName = { value: "Nearcast", source: "default", env: "NEARCAST_BRAND_NAME", secret: false };
  base.contactEmail = { value: "hello@nearcast.app", source: "default", env: "NEARCAST_CONTACT_EMAIL", secret: false };
  base.sendRate = { value: "1", source: "default", env: "NEARCAST_SEND_RATE", secret: false };
  return { ...base, ...overrides };
}

const SAVED: Partial<SettingsView> = {
  publicUrl: { value: "https://deals.example.com", source: "saved", env: "NEARCAST_PUBLIC_URL", secret: false },
  brandName: { value: "Corner Deals", source: "saved", env: "NEARCAST_BRAND_NAME", secret: false },
  twilioAccountSid: { value: "AC0123456789abcdef0123456789abcdef", source: "saved", env: "TWILIO_ACCOUNT_SID", secret: false },
  twilioAuthToken: { value: null, source: "saved", env: "TWILIO_AUTH_TOKEN", secret: true, set: true },
  twilioFrom: { value: "+15550001111", source: "saved", env: "TWILIO_FROM", secret: false },
  smtpUrl: { value: null, source: "saved", env: "NEARCAST_SMTP_URL", secret: true, set: true, hint: "smtp://mailer@mail.example.com:587" },
};

const SITE: SiteInfo = {
  brandName: "Corner Deals",
  contactEmail: "hello@nearcast.app",
  publicUrl: "https://deals.example.com",
  publicUrlSource: "saved",
  publicUrlPrivate: false,
  setupNeeded: false,
  ownerSignup: "approval",
  smsNumber: "+15550001111",
};

beforeEach(() => {
  document.cookie = "XSRF-TOKEN=xsrf-123";
  localStorage.setItem("token", "admin-token");
  toasts.value = [];
  site.value = SITE;
  replies["GET /api/site"] = { body: SITE };
  // The WhatsApp templates list below the form (its own test: whatsapp-template-field.test.tsx).
  replies["GET /api/business/WhatsAppTemplates"] = { body: [] };
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  toasts.value = [];
  site.value = null;
});

const type = (el: Element, value: string) => fireEvent.change(el, { target: { value } });
const input = (view: ReturnType<typeof render>, label: string) => view.getByLabelText(label) as HTMLInputElement;
const saveButton = (view: ReturnType<typeof render>) => view.getByRole("button", { name: /Save Settings|Saving/ }) as HTMLButtonElement;
const toastTexts = (view: ReturnType<typeof render>) => [...view.container.querySelectorAll(".toast")].map((t) => t.textContent ?? "");
const puts = (): ApiCall[] => calls.filter((c) => c.method === "PUT");

function render() {
  return renderAt("/settings", { "/settings": SettingsPage }, <Toasts />);
}

/** The page with `view` loaded. */
async function loaded(view: SettingsView) {
  replies[`GET ${SETTINGS}`] = { body: view };
  const screen = render();
  await waitFor(() => {
    if (!screen.queryByLabelText("Public URL")) throw new Error("not loaded");
  });
  return screen;
}

describe("loading", () => {
  test("fills each section from GET /api/settings; secrets stay empty, their placeholder says they are set", async () => {
    const view = await loaded(viewWith(SAVED));
    for (const heading of ["Public address", "Brand", "Messages", "Email"]) expect(view.getByRole("heading", { name: heading, level: 2 })).toBeTruthy();
    expect(input(view, "Public URL").value).toBe("https://deals.example.com");
    expect(input(view, "Brand name").value).toBe("Corner Deals");
    // A default shows as the placeholder, not as a value (an untouched save would otherwise store it).
    expect(input(view, "Contact email").value).toBe("");
    expect(input(view, "Contact email").placeholder).toBe("hello@nearcast.app");
    const tokenField = input(view, "Auth token");
    expect(tokenField.type).toBe("password");
    expect(tokenField.value).toBe("");
    expect(tokenField.placeholder).toBe("Set (type a new one to replace it)");
    const smtp = input(view, "SMTP URL");
    expect(smtp.type).toBe("password");
    expect(smtp.value).toBe("");
    expect(view.container.textContent).toContain("Saved: smtp://mailer@mail.example.com:587");
    expect(view.container.textContent).toContain("Messages are sent through your Twilio account.");
    expect(saveButton(view).disabled).toBe(true);
    // The template list is asked for by its own section, once it is on screen.
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${SETTINGS}`, "GET /api/business/WhatsAppTemplates"]));
  });

  test("lists the WhatsApp templates with their approval, a rejection's reason too", async () => {
    replies["GET /api/business/WhatsAppTemplates"] = {
      body: [
        { sid: "HX11111111111111111111111111111111", name: "weekly_offer", language: "en", category: "MARKETING", body: "{{1}} has a new offer", variables: [], mediaHeader: true, mediaVariable: "2", mediaUrl: "https://x/uploads/{{2}}", status: "approved", rejectionReason: null },
        { sid: "HX44444444444444444444444444444444", name: "flash_sale", language: "en", category: "MARKETING", body: "Sale", variables: [], mediaHeader: false, mediaVariable: null, mediaUrl: null, status: "rejected", rejectionReason: "INVALID_FORMAT" },
      ],
    };
    const view = await loaded(viewWith(SAVED));
    await waitFor(() => expect(view.getAllByTestId("wa-template")).toHaveLength(2));
    const [first, second] = view.getAllByTestId("wa-template");
    expect(first!.textContent).toContain("weekly_offer");
    expect(first!.textContent).toContain("approved");
    expect(first!.textContent).toContain("image header");
    expect(second!.textContent).toContain("rejected");
    expect(second!.textContent).toContain("Rejected: INVALID_FORMAT");
  });

  test("without Twilio credentials the Messages section says the sandbox is in use", async () => {
    const view = await loaded(viewWith());
    expect(view.container.textContent).toContain("Messages are recorded here, not sent, until the account SID, auth token and a sender are set.");
    expect(input(view, "Auth token").placeholder).toBe("Not set");
    expect((view.getByRole("button", { name: "Send test email" }) as HTMLButtonElement).disabled).toBe(true);
    expect(view.container.textContent).toContain("Save an SMTP URL first.");
  });

  test("a setting from the environment is shown locked with its variable's name", async () => {
    const view = await loaded(
      viewWith({
        publicUrl: { value: "https://env.example.org", source: "env", env: "NEARCAST_PUBLIC_URL", secret: false },
        twilioAuthToken: { value: null, source: "env", env: "TWILIO_AUTH_TOKEN", secret: true, set: true },
      }),
    );
    const url = input(view, "Public URL");
    expect(url.disabled).toBe(true);
    expect(url.value).toBe("https://env.example.org");
    expect(view.getByText("Set by NEARCAST_PUBLIC_URL")).toBeTruthy();
    expect(view.queryByRole("button", { name: /Use this address/ })).toBeNull();
    expect(input(view, "Auth token").disabled).toBe(true);
    expect(input(view, "Auth token").placeholder).toBe("Set by TWILIO_AUTH_TOKEN");
  });

  test("a failed load says so, with Retry", async () => {
    replies[`GET ${SETTINGS}`] = { status: 500, body: { error: "boom", code: "internal" } };
    const view = render();
    await waitFor(() => {
      if (!view.queryByText("Could not load settings.")) throw new Error("no notice");
    });
    expect(logged.length).toBeGreaterThan(0);
    replies[`GET ${SETTINGS}`] = { body: viewWith() };
    fireEvent.click(view.getByRole("button", { name: "Retry" }));
    await waitFor(() => {
      if (!view.queryByLabelText("Public URL")) throw new Error("not loaded");
    });
  });
});

describe("the public address", () => {
  test("a private link shows the warning and how to fix it; 'Use this address' fills in this window's origin", async () => {
    site.value = { ...SITE, publicUrl: "http://192.168.1.20:3000", publicUrlSource: "request", publicUrlPrivate: true };
    const view = await loaded(viewWith());
    const alert = view.getByText(UNREACHABLE_LINK_WARNING).closest(".alert")!;
    expect(alert.textContent).toContain(UNREACHABLE_LINK_FIX);
    expect(alert.textContent).toContain("http://192.168.1.20:3000");
    expect(view.container.textContent).toContain("Not set: links now use the address this page was opened on (http://192.168.1.20:3000).");
    fireEvent.click(view.getByRole("button", { name: /Use this address/ }));
    expect(input(view, "Public URL").value).toBe(window.location.origin);
    expect(saveButton(view).disabled).toBe(false);
  });

  test("a public link shows no warning", async () => {
    const view = await loaded(viewWith(SAVED));
    expect(view.queryByText(UNREACHABLE_LINK_WARNING)).toBeNull();
  });
});

describe("saving", () => {
  test("sends only the changed keys; a typed secret replaces it; success toast; the site is read again", async () => {
    const view = await loaded(viewWith(SAVED));
    replies[`PUT ${SETTINGS}`] = {
      body: viewWith({ ...SAVED, brandName: { value: "Bagel Barn", source: "saved", env: "NEARCAST_BRAND_NAME", secret: false } }),
    };
    replies["GET /api/site"] = { body: { ...SITE, brandName: "Bagel Barn" } };
    type(input(view, "Brand name"), "Bagel Barn");
    type(input(view, "Auth token"), "new-token-0123456789abcdef");
    expect(view.getByText("Unsaved changes")).toBeTruthy();
    await act(async () => fireEvent.click(saveButton(view)));
    await waitFor(() => {
      if (site.value?.brandName !== "Bagel Barn") throw new Error("site not reloaded");
    });
    expect(puts().map((c) => c.body)).toEqual([{ brandName: "Bagel Barn", twilioAuthToken: "new-token-0123456789abcdef" }]);
    expect(puts()[0]!.headers["x-xsrf-token"]).toBe("xsrf-123");
    expect(toastTexts(view).some((t) => t.includes(SAVED_TITLE))).toBe(true);
    // The form starts over from the saved values: the secret field is empty again, nothing is unsaved.
    await waitFor(() => {
      if (input(view, "Auth token").value !== "") throw new Error("not reset");
    });
    expect(input(view, "Brand name").value).toBe("Bagel Barn");
    expect(saveButton(view).disabled).toBe(true);
    expect(view.queryByText("Unsaved changes")).toBeNull();
  });

  test("emptying a field sends null (back to the default); 'Remove' clears a saved secret", async () => {
    const view = await loaded(viewWith(SAVED));
    replies[`PUT ${SETTINGS}`] = { body: viewWith() };
    type(input(view, "Brand name"), "");
    fireEvent.click(view.getByRole("button", { name: "Remove the saved SMTP URL" }));
    expect(input(view, "SMTP URL").placeholder).toBe("Removed when you save");
    await act(async () => fireEvent.click(saveButton(view)));
    await waitFor(() => {
      if (puts().length === 0) throw new Error("no PUT");
    });
    expect(puts()[0]!.body).toEqual({ brandName: null, smtpUrl: null });
  });

  test("a bad value is refused in the form with the API's message, and nothing is sent", async () => {
    const view = await loaded(viewWith());
    type(input(view, "Public URL"), "ftp://x");
    fireEvent.blur(input(view, "Public URL"));
    expect(view.getByText("Public URL must be an http:// or https:// address, without a query or fragment")).toBeTruthy();
    await act(async () => fireEvent.click(saveButton(view)));
    expect(puts()).toEqual([]);
  });

  test("a control character (pasted with a value) is refused under its field, and nothing is sent (issue 21)", async () => {
    const view = await loaded(viewWith());
    type(input(view, "Brand name"), "Corner\u0007Deals");
    fireEvent.blur(input(view, "Brand name"));
    const error = view.getByText("Brand name must be one line, without line breaks or other control characters");
    expect(error.classList.contains("field-error")).toBe(true);
    expect(input(view, "Brand name").getAttribute("aria-invalid")).toBe("true");
    await act(async () => fireEvent.click(saveButton(view)));
    expect(puts()).toEqual([]);
  });

  test("the server's field errors show under their fields, with an error toast; nothing else changes", async () => {
    const view = await loaded(viewWith());
    const message = "NEARCAST_PUBLIC_URL is set on the server, so this setting cannot be changed here";
    replies[`PUT ${SETTINGS}`] = { status: 400, body: { error: message, code: "validation_failed", fields: { publicUrl: message } } };
    type(input(view, "Public URL"), "https://deals.example.com");
    await act(async () => fireEvent.click(saveButton(view)));
    await waitFor(() => {
      if (!view.container.querySelector(".field-error")) throw new Error("no field error");
    });
    expect(view.container.querySelector(".field-error")!.textContent).toBe(message);
    expect(input(view, "Public URL").getAttribute("aria-invalid")).toBe("true");
    expect(toastTexts(view).some((t) => t.includes(NOT_SAVED_TITLE) && t.includes(message))).toBe(true);
    expect(input(view, "Public URL").value).toBe("https://deals.example.com");
    // The form can be sent again.
    expect(saveButton(view).disabled).toBe(false);
  });
});

describe("Send test email", () => {
  test("the server's message as a success toast", async () => {
    const view = await loaded(viewWith(SAVED));
    replies["POST /api/settings/TestEmail"] = { body: { message: "Test email sent to admin@example.com." } };
    await act(async () => fireEvent.click(view.getByRole("button", { name: "Send test email" })));
    await waitFor(() => {
      if (!toastTexts(view).some((t) => t.includes(TEST_EMAIL_SENT))) throw new Error("no toast");
    });
    expect(toastTexts(view).some((t) => t.includes("Test email sent to admin@example.com."))).toBe(true);
    expect(calls.filter((c) => c.method === "POST").map((c) => c.body)).toEqual([{}]);
  });

  test("the server's error as an error toast", async () => {
    const view = await loaded(viewWith(SAVED));
    replies["POST /api/settings/TestEmail"] = { status: 502, body: { error: "The mail server refused the login.", code: "mail_failed" } };
    await act(async () => fireEvent.click(view.getByRole("button", { name: "Send test email" })));
    await waitFor(() => {
      if (!toastTexts(view).some((t) => t.includes(TEST_EMAIL_FAILED))) throw new Error("no toast");
    });
    expect(toastTexts(view).some((t) => t.includes("The mail server refused the login."))).toBe(true);
    expect((view.getByRole("button", { name: "Send test email" }) as HTMLButtonElement).disabled).toBe(false);
  });
});

test("the navigation bar links to Settings for an admin only", () => {
  token.value = "t";
  currentUser.value = { id: 1, email: "o@example.com", firstName: "O", lastName: "W", role: "owner" } as typeof currentUser.value;
  const owner = renderAt("/", { "/": <NavBar /> });
  expect(owner.queryByRole("link", { name: "Settings" })).toBeNull();
  cleanup();
  currentUser.value = { id: 2, email: "a@example.com", firstName: "A", lastName: "D", role: "admin" } as typeof currentUser.value;
  const admin = renderAt("/", { "/": <NavBar /> });
  expect(admin.getByRole("link", { name: "Settings" }).getAttribute("href")).toBe("/settings");
  token.value = null;
  currentUser.value = null;
});

describe("the upload quota (issue 10)", () => {
  const QUOTA_DEFAULT: Partial<SettingsView> = { uploadQuotaMb: { value: "200", source: "default", env: "NEARCAST_UPLOAD_QUOTA_MB", secret: false } };

  test("shows under Uploads with its default as the placeholder; a new value is sent; a bad one is refused in the form", async () => {
    const view = await loaded(viewWith(QUOTA_DEFAULT));
    expect(view.getByRole("heading", { name: "Uploads", level: 2 })).toBeTruthy();
    const quota = input(view, "Upload quota (MB)");
    expect(quota.value).toBe("");
    expect(quota.placeholder).toBe("200");

    type(quota, "1.5");
    fireEvent.blur(quota);
    expect(view.getByText("Upload quota must be a whole number of MB from 1 to 1048576")).toBeTruthy();
    await act(async () => fireEvent.click(saveButton(view)));
    expect(puts()).toEqual([]);

    replies[`PUT ${SETTINGS}`] = { body: viewWith({ uploadQuotaMb: { value: "500", source: "saved", env: "NEARCAST_UPLOAD_QUOTA_MB", secret: false } }) };
    type(quota, "500");
    await act(async () => fireEvent.click(saveButton(view)));
    await waitFor(() => {
      if (puts().length === 0) throw new Error("no PUT");
    });
    expect(puts()[0]!.body).toEqual({ uploadQuotaMb: "500" });
  });

  test("set by NEARCAST_UPLOAD_QUOTA_MB it is locked", async () => {
    const view = await loaded(viewWith({ uploadQuotaMb: { value: "50", source: "env", env: "NEARCAST_UPLOAD_QUOTA_MB", secret: false } }));
    const quota = input(view, "Upload quota (MB)");
    expect(quota.disabled).toBe(true);
    expect(quota.value).toBe("50");
    expect(view.container.textContent).toContain("NEARCAST_UPLOAD_QUOTA_MB");
  });
});
