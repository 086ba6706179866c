// The sandbox's "Try a reply" panel on the home page of owners and the admin.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/customers/simulate-reply.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import { helpReply, NOT_YOUR_NUMBER, STOP_REPLY, twiml } from "../../../src/services/inbound-messages.ts";
import { replyText, SimulateReply } from "../../../web/features/customers/components/SimulateReply.tsx";
import { HomePage } from "../../../web/features/home/Home.tsx";
import { mockApi } from "../../helpers/mock-api.ts";
import { captureConsoleErrors } from "../console-errors.ts";
import { signIn } from "../sign-in.ts";

const api = mockApi();
const SANDBOX = "GET /api/webhooks/twilio/Sandbox";
const ALL_CUSTOMERS = "GET /api/customer/GetAllCustomers";
const SEARCH = "GET /api/customer/ListCustomers";
const INBOUND = "POST /api/webhooks/twilio/inbound";
const URL_WITH_KEY = "http://localhost:3000/api/webhooks/twilio/inbound?key=s3cret-key";
const logged = captureConsoleErrors();

const customer = (id: number, phone: string) => ({ id, phone, contactPreference: "SMS", businesses: [{ id: 1, name: "Rosa's Bakery", status: "active" }] });

beforeEach(() => {
  document.cookie = "XSRF-TOKEN=xsrf-1";
});

afterEach(() => {
  cleanup();
  signIn(null);
});

function sandbox(inboundUrl: string | null = null) {
  api.routes[SANDBOX] = { body: { sandbox: true, inboundUrl } };
  api.routes[SEARCH] = { body: { items: [customer(1, "+14155550101"), customer(2, "+14155550102"), customer(3, "+14155550101")], nextCursor: null, total: 3 } };
}

describe("SimulateReply", () => {
  test("with Twilio configured it shows nothing and loads no customers", async () => {
    api.routes[SANDBOX] = { body: { sandbox: false, inboundUrl: null } };
    const view = render(<SimulateReply />);
    await waitFor(() => expect(api.paths()).toEqual([SANDBOX]));
    expect(view.container.innerHTML).toBe("");
    expect(logged).toEqual([]);
  });

  test("the owner searches their customers' numbers (a few at a time, each once), picks one and sends STOP", async () => {
    sandbox();
    api.routes[INBOUND] = { text: twiml(STOP_REPLY), headers: { "content-type": "text/xml" } };
    const view = render(<SimulateReply />);
    const from = (await waitFor(() => view.getByLabelText("From"))) as HTMLInputElement;
    // Never the whole list: nothing is asked until digits are typed, then one short page of matches.
    expect(view.container.querySelectorAll("option")).toHaveLength(0);
    fireEvent.change(from, { target: { value: "5550" } });
    const results = await waitFor(() => view.getByRole("list", { name: "Matching customers" }));
    expect([...results.querySelectorAll("button")].map((b) => b.textContent)).toEqual(["+14155550101", "+14155550102"]);
    const search = api.calls.find((c) => `${c.method} ${c.url.split("?")[0]}` === SEARCH)!;
    expect(new URL(search.url, "http://x").searchParams.get("limit")).toBe("5");
    expect(new URL(search.url, "http://x").searchParams.get("q")).toBe("5550");
    expect(api.paths()).not.toContain(ALL_CUSTOMERS);
    fireEvent.click(view.getByRole("button", { name: "+14155550102" }));
    expect(from.value).toBe("+14155550102");
    expect(view.queryByRole("list", { name: "Matching customers" })).toBeNull();
    fireEvent.click(view.getByRole("button", { name: "STOP" }));
    await waitFor(() => view.getByText(STOP_REPLY));
    const call = api.calls.find((c) => `${c.method} ${c.url}` === INBOUND)!;
    expect(Object.fromEntries(call.body as URLSearchParams)).toEqual({ From: "+14155550102", Body: "STOP" });
    // A write like every other: the XSRF header (the server refuses a session without it).
    expect(call.headers).toMatchObject({ "x-xsrf-token": "xsrf-1" });
    expect(view.container.querySelector(".simulate-reply-sent")!.textContent).toBe("+14155550102 sent STOP");
  });

  test("a typed number and free text: the answer says there is no reply to anything but the keywords", async () => {
    sandbox();
    api.routes[INBOUND] = { text: twiml(null) };
    const view = render(<SimulateReply />);
    const from = await waitFor(() => view.getByLabelText("From"));
    fireEvent.change(from, { target: { value: "(415) 555-0199" } });
    fireEvent.change(view.getByLabelText("Or any text"), { target: { value: "Do you have rye bread?" } });
    fireEvent.click(view.getByRole("button", { name: "Send" }));
    await waitFor(() => view.getByText("No reply: only STOP, START and HELP (and their synonyms) get one."));
    expect(Object.fromEntries(api.calls.at(-1)!.body as URLSearchParams)).toEqual({ From: "(415) 555-0199", Body: "Do you have rye bread?" });
  });

  test("typing nothing asks for a number and sends nothing", async () => {
    sandbox();
    const view = render(<SimulateReply />);
    fireEvent.click(await waitFor(() => view.getByRole("button", { name: "HELP" })));
    expect(view.getByRole("alert").textContent).toBe("Choose a customer's number or type one.");
    expect(api.paths()).not.toContain(INBOUND);
  });

  test("the server's refusal (another owner's number) is shown as it says it", async () => {
    sandbox();
    api.routes[INBOUND] = { status: 403, body: { error: NOT_YOUR_NUMBER, code: "forbidden" } };
    const view = render(<SimulateReply />);
    fireEvent.change(await waitFor(() => view.getByLabelText("From")), { target: { value: "+14155550177" } });
    fireEvent.click(view.getByRole("button", { name: "HELP" }));
    await waitFor(() => expect(view.getByRole("alert").textContent).toBe(NOT_YOUR_NUMBER));
  });

  test("the admin also gets the inbound URL with its key, for curl; an owner does not", async () => {
    sandbox(URL_WITH_KEY);
    const admin = render(<SimulateReply />);
    await waitFor(() => admin.getByText("Try it with curl"));
    expect(admin.container.querySelector("code")!.textContent).toContain(URL_WITH_KEY);
    cleanup();
    sandbox(null);
    const owner = render(<SimulateReply />);
    await waitFor(() => owner.getByRole("heading", { name: "Try a reply" }));
    expect(owner.queryByText("Try it with curl")).toBeNull();
  });

  test("replyText reads the TwiML's message, entities decoded; none for an empty answer", () => {
    expect(replyText(twiml(helpReply({ name: "Rosa's Bakery & Co", phone: "+14155550100" })))).toBe(helpReply({ name: "Rosa's Bakery & Co", phone: "+14155550100" }));
    expect(replyText(twiml(null))).toBeNull();
  });
});

describe("on the home page", () => {
  test("a signed-in owner sees the panel in the sandbox; a visitor sees none and nothing is asked", async () => {
    signIn(null);
    const visitor = render(<HomePage />);
    expect(visitor.queryByRole("heading", { name: "Try a reply" })).toBeNull();
    expect(api.calls).toHaveLength(0);
    cleanup();
    sandbox();
    signIn("owner");
    const owner = render(<HomePage />);
    await waitFor(() => owner.getByRole("heading", { name: "Try a reply" }));
  });
});
