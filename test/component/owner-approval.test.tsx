// Issue 21, item 2 on the screens: the admin's Users screen (every account with role and state; approve, refuse,
// delete after a confirmation), the pending owners on the admin's home, the pending owner's notice, the closed
// Register page, and the test panel's verify step (send a code, type it, the Verified badge).
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/owner-approval.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, within } from "@testing-library/react";
import type { PublicUser } from "../../src/schemas/auth.ts";
import { PENDING_NOTICE, SIGNUP_CLOSED } from "../../src/schemas/owner-approval.ts";
import { TEST_SEND_LABEL, WAIT_FOR_APPROVAL } from "../../web/features/broadcast/components/TestSendPanel.tsx";
import { CODE_LABEL, SEND_CODE_LABEL, VERIFIED_BADGE, VERIFY_LABEL } from "../../web/features/broadcast/components/VerifyPhone.tsx";
import { PendingOwners } from "../../web/features/users/components/PendingOwners.tsx";
import { HomePage } from "../../web/features/home/Home.tsx";
import { RegisterPage } from "../../web/features/auth/Register.tsx";
import { deleteQuestion, UsersPage } from "../../web/features/users/UsersPage.tsx";
import { currentUser } from "../../web/shared/state/session.ts";
import { site } from "../../web/shared/state/site.ts";
import { toasts } from "../../web/shared/state/toasts.ts";
import { mockApi, siteInfo } from "../helpers/mock-api.ts";
import { renderAt, settle } from "./render-at.tsx";
import { openingReplies, renderBroadcastScreen } from "./broadcast/broadcast-screen.tsx";

const api = mockApi();
const { calls, routes: replies } = api;
const realConsoleError = console.error;

const user = (id: number, extra: Partial<PublicUser>): PublicUser => ({
  id,
  email: `user${id}@example.com`,
  firstName: `First${id}`,
  lastName: "Last",
  role: "owner",
  createdAt: "2026-01-01T00:00:00.000Z",
  phone: null,
  phoneVerified: false,
  status: "approved",
  ...extra,
});
const ADMIN = user(1, { role: "admin", email: "boss@example.com", firstName: "Bea" });
const PENDING = user(2, { status: "pending", firstName: "Rosa" });
const APPROVED = user(3, { firstName: "Omar" });
const REFUSED = user(4, { status: "refused", firstName: "Sam" });

const callsTo = (key: string) => calls.filter((c) => `${c.method} ${c.url.split("?")[0]}` === key);

beforeEach(() => {
  toasts.value = [];
  console.error = () => {};
  document.cookie = "XSRF-TOKEN=xsrf-123";
  localStorage.setItem("token", "a-token");
});
afterEach(() => {
  cleanup();
  console.error = realConsoleError;
  currentUser.value = null;
  site.value = null;
  localStorage.clear();
});

describe("the Users screen", () => {
  beforeEach(() => {
    currentUser.value = ADMIN;
    let users: PublicUser[] = [ADMIN, PENDING, APPROVED, REFUSED];
    replies["GET /api/user/GetAllUsers"] = () => ({ body: users });
    replies["POST /api/user/ApproveUser"] = (call) => {
      const id = Number(new URL(call.url, "http://x").searchParams.get("id"));
      users = users.map((u) => (u.id === id ? { ...u, status: "approved" as const } : u));
      return { body: users.find((u) => u.id === id) };
    };
    replies["POST /api/user/RefuseUser"] = (call) => {
      const id = Number(new URL(call.url, "http://x").searchParams.get("id"));
      users = users.map((u) => (u.id === id ? { ...u, status: "refused" as const } : u));
      return { body: users.find((u) => u.id === id) };
    };
    replies["DELETE /api/user/DeleteUser"] = (call) => {
      const id = Number(new URL(call.url, "http://x").searchParams.get("id"));
      users = users.filter((u) => u.id !== id);
      return { body: { message: "deleted" } };
    };
  });

  const row = (view: ReturnType<typeof renderAt>, id: number) => within(view.getByTestId(`user-${id}`));

  test("every account with its role and state; no buttons on one's own row", async () => {
    const view = renderAt("/users", { "/users": UsersPage });
    await settle();
    expect(view.getByRole("heading", { name: "Users" })).toBeDefined();
    expect(view.container.textContent).toContain("1 owner is waiting for your approval");
    expect(row(view, 1).getByText("Admin")).toBeDefined();
    expect(row(view, 1).queryAllByRole("button")).toHaveLength(0);
    expect(row(view, 2).getByText("Waiting for approval")).toBeDefined();
    expect(row(view, 3).getByText("Approved")).toBeDefined();
    expect(row(view, 4).getByText("Refused")).toBeDefined();
    // Approve only where not approved, Refuse only where not refused.
    expect(row(view, 2).getByRole("button", { name: "Approve Rosa Last" })).toBeDefined();
    expect(row(view, 3).queryByRole("button", { name: /^Approve/ })).toBeNull();
    expect(row(view, 4).queryByRole("button", { name: /^Refuse/ })).toBeNull();
  });

  test("Approve and Refuse call the API for that account and the list shows the new state", async () => {
    const view = renderAt("/users", { "/users": UsersPage });
    await settle();
    fireEvent.click(row(view, 2).getByRole("button", { name: "Approve Rosa Last" }));
    await settle();
    expect(callsTo("POST /api/user/ApproveUser")[0]!.url).toBe("/api/user/ApproveUser?id=2");
    expect(row(view, 2).getByText("Approved")).toBeDefined();
    expect(toasts.value.at(-1)?.title).toBe("Account Approved");
    fireEvent.click(row(view, 3).getByRole("button", { name: "Refuse Omar Last" }));
    await settle();
    expect(callsTo("POST /api/user/RefuseUser")[0]!.url).toBe("/api/user/RefuseUser?id=3");
    expect(row(view, 3).getByText("Refused")).toBeDefined();
  });

  test("Delete asks first: cancelled, nothing is deleted; confirmed, the account goes", async () => {
    const view = renderAt("/users", { "/users": UsersPage });
    await settle();
    api.confirmAnswer = false;
    fireEvent.click(row(view, 4).getByRole("button", { name: "Delete Sam Last" }));
    await settle();
    expect(api.confirms).toEqual([deleteQuestion(REFUSED)]);
    expect(callsTo("DELETE /api/user/DeleteUser")).toHaveLength(0);
    api.confirmAnswer = true;
    fireEvent.click(row(view, 4).getByRole("button", { name: "Delete Sam Last" }));
    await settle();
    expect(callsTo("DELETE /api/user/DeleteUser")[0]!.url).toBe("/api/user/DeleteUser?id=4");
    expect(view.queryByTestId("user-4")).toBeNull();
  });

  test("a refusal from the server (the last admin) is shown as it says", async () => {
    replies["POST /api/user/RefuseUser"] = { status: 409, body: { error: "This is the last administrator; make another admin first.", code: "conflict" } };
    const view = renderAt("/users", { "/users": UsersPage });
    await settle();
    fireEvent.click(row(view, 3).getByRole("button", { name: "Refuse Omar Last" }));
    await settle();
    expect(toasts.value.at(-1)?.message).toBe("This is the last administrator; make another admin first.");
    expect(row(view, 3).getByText("Approved")).toBeDefined();
  });
});

describe("the home page", () => {
  test("the admin sees the owners waiting, and approves one there", async () => {
    currentUser.value = ADMIN;
    let pending = [PENDING];
    replies["GET /api/user/GetPendingUsers"] = () => ({ body: pending });
    replies["POST /api/user/ApproveUser"] = () => {
      pending = [];
      return { body: { ...PENDING, status: "approved" } };
    };
    const view = renderAt("/", { "/": <PendingOwners /> });
    await settle();
    const card = within(view.getByTestId("pending-2"));
    expect(card.getByText("Rosa Last")).toBeDefined();
    fireEvent.click(card.getByRole("button", { name: "Approve Rosa Last" }));
    await settle();
    expect(callsTo("POST /api/user/ApproveUser")[0]!.url).toBe("/api/user/ApproveUser?id=2");
    expect(view.queryByTestId("pending-2")).toBeNull();
  });

  test("a pending owner reads why nothing is sent; an approved one does not", async () => {
    replies["GET /api/settings/Checklist"] = { body: { items: [] } };
    replies["GET /api/webhooks/twilio/SimulateInfo"] = { status: 404, body: { error: "no", code: "not_found" } };
    api.fallback = { status: 404, body: { error: "no", code: "not_found" } };
    currentUser.value = PENDING;
    const view = renderAt("/", { "/": HomePage });
    await settle();
    expect(view.getByTestId("pending-approval").textContent).toContain(PENDING_NOTICE);
    cleanup();
    currentUser.value = APPROVED;
    const again = renderAt("/", { "/": HomePage });
    await settle();
    expect(again.queryByTestId("pending-approval")).toBeNull();
  });
});

describe("the Register page", () => {
  test("closed: it says the admin creates owners, and has no form", () => {
    site.value = siteInfo({ ownerSignup: "closed" });
    const view = renderAt("/register", { "/register": RegisterPage });
    expect(view.getByTestId("signup-closed").textContent).toBe(SIGNUP_CLOSED);
    expect(view.queryByRole("form", { name: "Register" })).toBeNull();
  });
  test("approval: the form, saying new accounts wait for approval", () => {
    site.value = siteInfo({ ownerSignup: "approval" });
    const view = renderAt("/register", { "/register": RegisterPage });
    expect(view.getByRole("form", { name: "Register" })).toBeDefined();
    expect(view.container.textContent).toContain("wait for the administrator's approval");
  });
});

describe("the test panel's verify step", () => {
  beforeEach(() => {
    Object.assign(replies, openingReplies({ total: 1, sms: 1, whatsapp: 0 }));
    api.fallback = { status: 404, body: { error: "no", code: "not_found" } };
  });
  const renderBroadcast = async () => {
    const view = await renderBroadcastScreen();
    view.type("Hello");
    return view;
  };
  const testButton = (view: ReturnType<typeof renderAt>) => view.getByRole("button", { name: TEST_SEND_LABEL }) as HTMLButtonElement;

  test("send a code, a wrong one is said at the field, the right one verifies and the test can go", async () => {
    currentUser.value = { ...APPROVED, phone: "+14155550199" };
    replies["POST /api/auth/SendPhoneCode"] = { body: { message: "A 6-digit code was texted to +14155550199.", to: "+14155550199", expiresInMinutes: 10, resendAfterSeconds: 60 } };
    const view = await renderBroadcast();
    expect(testButton(view).disabled).toBe(true);
    fireEvent.click(view.getByRole("button", { name: SEND_CODE_LABEL }));
    await settle();
    expect(callsTo("POST /api/auth/SendPhoneCode")).toHaveLength(1);
    expect(view.getByTestId("code-sent").textContent).toBe("A 6-digit code was texted to +14155550199.");
    const input = view.getByLabelText(CODE_LABEL);
    replies["POST /api/auth/VerifyMyPhone"] = { status: 400, body: { error: "That code is not right: 4 tries left.", code: "code_wrong", fields: { code: "That code is not right: 4 tries left." } } };
    fireEvent.change(input, { target: { value: "111111" } });
    fireEvent.click(view.getByRole("button", { name: VERIFY_LABEL }));
    await settle();
    expect(view.getByRole("alert").textContent).toBe("That code is not right: 4 tries left.");
    replies["POST /api/auth/VerifyMyPhone"] = { body: { ...APPROVED, phone: "+14155550199", phoneVerified: true } };
    fireEvent.change(input, { target: { value: "123456" } });
    // Enter verifies; it never submits the broadcast.
    fireEvent.keyDown(input, { key: "Enter" });
    await settle();
    expect(callsTo("POST /api/auth/VerifyMyPhone").at(-1)!.body).toEqual({ code: "123456" });
    expect(view.getByTestId("phone-badge").textContent).toBe(VERIFIED_BADGE);
    expect(view.queryByLabelText(CODE_LABEL)).toBeNull();
    expect(testButton(view).disabled).toBe(false);
    expect(callsTo("POST /api/business/PublishMessageToAllCustomers")).toHaveLength(0);
  });

  test("a pending owner: the notice, no code step, and the test waits for approval", async () => {
    currentUser.value = { ...PENDING, phone: "+14155550199" };
    const view = await renderBroadcast();
    expect(view.getByTestId("pending-approval")).toBeDefined();
    expect(view.queryByRole("button", { name: SEND_CODE_LABEL })).toBeNull();
    expect(view.getByTestId("test-hint").textContent).toBe(WAIT_FOR_APPROVAL);
    expect(testButton(view).disabled).toBe(true);
  });
});
