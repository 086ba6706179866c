// The customer messages modal on happy-dom, with fetch mocked at the global.
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/customers/customer-messages-modal.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, render } from "@testing-library/react";
import type { CustomerMessage } from "../../../web/features/customers/api/customer-messages.ts";
import { CustomerMessagesModal, MORE_MESSAGES_FAILED } from "../../../web/features/customers/components/CustomerMessagesModal.tsx";
import { LOAD_MORE } from "../../../web/shared/components/LoadMore.tsx";
import { type Answer, mockApi } from "../../helpers/mock-api.ts";
import { settle } from "../render-at.tsx";

const api = mockApi();
const urls = () => api.calls.map((c) => c.url);
let closed = 0;
const realConsoleError = console.error;
const realTZ = process.env.TZ;

beforeEach(() => {
  // Dates are shown in local time: pin it so the expected strings are exact.
  process.env.TZ = "America/New_York";
  closed = 0;
  api.fallback = { body: page([]) };
  console.error = () => {};
  localStorage.setItem("token", "owner-token");
});

afterEach(() => {
  cleanup();
  console.error = realConsoleError;
  localStorage.clear();
  if (realTZ === undefined) delete process.env.TZ;
  else process.env.TZ = realTZ;
  document.body.style.overflow = "";
});

async function open(customerId: number | string = 12, customerName = "+14155550123") {
  const view = render(<CustomerMessagesModal customerId={customerId} customerName={customerName} onClose={() => void (closed += 1)} />);
  await settle();
  return view;
}

/** One answer of ListCustomerMessages: `items`, and a next page when `nextCursor` is given. */
const page = (items: CustomerMessage[], nextCursor: string | null = null, total = items.length) => ({ items, nextCursor, total });

const msg = (over: Partial<CustomerMessage> = {}): CustomerMessage => ({
  businessName: "Sunrise Bakery",
  status: "Delivered",
  messageType: "SMS",
  kind: "Promotion",
  sentAt: "2026-11-22T20:04:00.000Z",
  messageText: "Fresh croissants 20% off until noon!",
  imageUrl: null,
  errorMessage: null,
  ...over,
});

describe("CustomerMessagesModal", () => {
  test("a labelled modal dialog titled 'Customer Messages' with the phone number; loads the customer's messages", async () => {
    const view = await open(12, "+14155550123");
    const dialog = view.getByRole("dialog");
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(view.getByRole("dialog", { name: "Customer Messages" })).toBe(dialog);
    expect(view.getByRole("heading", { level: 2 }).textContent).toBe("Customer Messages");
    expect(view.getByText("+14155550123")).toBeTruthy();
    expect(urls()).toEqual(["/api/customer/ListCustomerMessages?customerId=12&limit=20"]);
  });

  test("loading: a spinner until the answer comes", async () => {
    let release!: (a: Answer) => void;
    api.fallback = () => new Promise<Answer>((r) => (release = r));
    const view = await open();
    expect(view.getByRole("status").textContent).toContain("Loading messages...");
    release({ body: page([]) });
    await settle();
    expect(view.queryByText("Loading messages...")).toBeNull();
  });

  test("empty: 'No Messages Found' and the explanation", async () => {
    const view = await open();
    expect(view.getByRole("heading", { name: "No Messages Found" })).toBeTruthy();
    expect(view.getByText("This customer hasn't received any messages yet.")).toBeTruthy();
    expect(view.queryByText(/message\(s\) found/)).toBeNull();
  });

  test.each([
    ["a server error", { status: 500, body: { error: "x", code: "internal" } }],
    ["a 404", { status: 404, body: { error: "Customer not found.", code: "not_found" } }],
    ["no connection", { network: true }],
  ] as const)("error (%s): 'Failed to load customer messages. Please try again.', and Try again reloads", async (_name, answer) => {
    api.fallback = answer as Answer;
    const view = await open();
    expect(view.getByRole("alert").textContent).toBe("Failed to load customer messages. Please try again.");
    api.fallback = { body: page([msg()]) };
    fireEvent.click(view.getByRole("button", { name: "Try again" }));
    await settle();
    expect(view.queryByRole("alert")).toBeNull();
    expect(view.getByText("1 message(s) found")).toBeTruthy();
    expect(urls().length).toBe(2);
  });

  test("results: count, 'Sorted by most recent', and each message in the server's order", async () => {
    api.fallback = {
      body: page([
        msg({ businessName: "Sunrise Bakery", status: "Sent", messageType: "WhatsApp", sentAt: "2026-11-22T20:04:00.000Z" }),
        msg({ businessName: "Corner Salon", status: "Delivered", sentAt: "2026-03-05T09:30:00.000Z" }),
        msg({ businessName: "Pizza Place", status: "Failed", errorMessage: "Twilio error 30006: landline or unreachable carrier", sentAt: "2026-01-02T00:05:00.000Z" }),
        msg({ businessName: "Gym", status: "Queued", sentAt: null }),
      ]),
    };
    const view = await open();
    expect(view.getByRole("heading", { name: "4 message(s) found" })).toBeTruthy();
    expect(view.getByText("Sorted by most recent")).toBeTruthy();
    const items = [...view.container.querySelectorAll(".msg-item")];
    expect(items.map((i) => i.querySelector(".msg-business")!.textContent)).toEqual(["Sunrise Bakery", "Corner Salon", "Pizza Place", "Gym"]);
    expect(items.map((i) => i.querySelector(".msg-type")!.textContent)).toEqual(["WhatsApp", "SMS", "SMS", "SMS"]);
    expect(items.every((i) => i.querySelector(".msg-text")!.textContent === "Fresh croissants 20% off until noon!")).toBe(true);
  });

  test("status badges: Sent green, Delivered yellow, Failed red, Queued grey", async () => {
    api.fallback = { body: page((["Sent", "Delivered", "Failed", "Queued"] as const).map((status) => msg({ status }))) };
    const view = await open();
    const badges = [...view.container.querySelectorAll(".msg-status")].map((b) => [b.textContent, b.className]);
    expect(badges).toEqual([
      ["Sent", "badge badge-success msg-status"],
      ["Delivered", "badge badge-warning msg-status"],
      ["Failed", "badge badge-danger msg-status"],
      ["Queued", "badge badge-muted msg-status"],
    ]);
  });

  test("date and time in US English: short month, day, year and time (local)", async () => {
    api.fallback = {
      body: page([
        msg({ sentAt: "2026-11-22T20:04:00.000Z" }),
        msg({ sentAt: "2026-07-04T04:30:00.000Z" }),
        msg({ sentAt: null, status: "Queued" }),
      ]),
    };
    const view = await open();
    const dates = [...view.container.querySelectorAll(".msg-date")];
    expect(dates.map((d) => d.textContent)).toEqual(["Nov 22, 2026, 3:04 PM", "Jul 4, 2026, 12:30 AM", "Not sent yet"]);
    expect(dates[0]!.getAttribute("dateTime")).toBe("2026-11-22T20:04:00.000Z");
  });

  test("images: http(s) URLs as is, anything else relative to the site origin; hidden if they fail to load", async () => {
    api.fallback = {
      body: page([
        msg({ imageUrl: "https://cdn.example.com/promo.jpg" }),
        msg({ imageUrl: "http://cdn.example.com/a.png" }),
        msg({ imageUrl: "/uploads/abc.png" }),
        msg({ imageUrl: "uploads/def.png" }),
        msg({ imageUrl: null }),
      ]),
    };
    const view = await open();
    const srcs = () => [...view.container.querySelectorAll<HTMLImageElement>(".msg-image")].map((i) => i.getAttribute("src"));
    expect(srcs()).toEqual([
      "https://cdn.example.com/promo.jpg",
      "http://cdn.example.com/a.png",
      `${window.location.origin}/uploads/abc.png`,
      `${window.location.origin}/uploads/def.png`,
    ]);
    expect(view.container.querySelectorAll(".msg-item")[4]!.querySelector("img")).toBeNull();
    fireEvent.error(view.container.querySelector(".msg-image")!);
    expect(srcs()).toEqual(["http://cdn.example.com/a.png", `${window.location.origin}/uploads/abc.png`, `${window.location.origin}/uploads/def.png`]);
  });

  test("an error message, when present, is labelled 'Error'", async () => {
    api.fallback = { body: page([msg({ status: "Failed", errorMessage: "Unreachable destination handset." }), msg()]) };
    const view = await open();
    const errors = [...view.container.querySelectorAll(".msg-error")];
    expect(errors.length).toBe(1);
    expect(errors[0]!.querySelector(".msg-error-label")!.textContent).toBe("Error:");
    expect(errors[0]!.textContent).toBe("Error: Unreachable destination handset.");
  });

  test("the list is the scroll area (max-height 600px in the stylesheet)", async () => {
    api.fallback = { body: page([msg()]) };
    const view = await open();
    const list = view.getByRole("list", { name: "Messages" });
    expect(list.className).toBe("msg-list");
    const css = await Bun.file(new URL("../../../web/shared/styles/broadcast.css", import.meta.url)).text();
    expect(css).toMatch(/\.msg-list \{[^}]*max-height: 600px;[^}]*overflow-y: auto;/);
    expect(css).toMatch(/\.msg-image \{[^}]*max-width: 200px;[^}]*max-height: 200px;/);
  });
});

describe("CustomerMessagesModal: long histories come a page at a time", () => {
  test("the total in the heading; Load more appends the next page; a failed one keeps the rows and says so", async () => {
    let failNext = false;
    api.fallback = (call) => {
      const cursor = new URL(call.url, "http://x").searchParams.get("cursor");
      if (cursor && failNext) return { status: 500, body: { error: "x", code: "internal" } };
      return cursor === "p2"
        ? { body: page([msg({ businessName: "Third" })], null, 3) }
        : { body: page([msg({ businessName: "First" }), msg({ businessName: "Second" })], "p2", 3) };
    };
    failNext = true;
    const view = await open();
    expect(view.getByRole("heading", { name: "3 message(s) found" })).toBeTruthy();
    expect(view.getByTestId("showing").textContent).toBe("Showing 2 of 3 messages");
    fireEvent.click(view.getByRole("button", { name: LOAD_MORE }));
    await settle();
    expect(view.getByText(MORE_MESSAGES_FAILED)).toBeTruthy();
    expect(view.container.querySelectorAll(".msg-item").length).toBe(2);
    failNext = false;
    fireEvent.click(view.getByRole("button", { name: "Try again" }));
    await settle();
    const names = [...view.container.querySelectorAll(".msg-business")].map((n) => n.textContent);
    expect(names).toEqual(["First", "Second", "Third"]);
    expect(view.getByTestId("showing").textContent).toBe("Showing 3 of 3 messages");
    expect(view.queryByRole("button", { name: LOAD_MORE })).toBeNull();
    expect(urls().map((u) => new URL(u, "http://x").searchParams.get("cursor"))).toEqual([null, "p2", "p2"]);
  });
});

describe("closing and focus", () => {
  test("the Close button closes it", async () => {
    const view = await open();
    fireEvent.click(view.getByRole("button", { name: "Close" }));
    expect(closed).toBe(1);
  });

  test("the X, Escape and a click on the backdrop close it; a click inside does not", async () => {
    const view = await open();
    fireEvent.click(view.getByRole("button", { name: "Close dialog" }));
    expect(closed).toBe(1);
    fireEvent.keyDown(document, { key: "Escape" });
    expect(closed).toBe(2);
    fireEvent.mouseDown(view.getByRole("dialog"));
    expect(closed).toBe(2);
    fireEvent.mouseDown(view.getByTestId("messages-backdrop"));
    expect(closed).toBe(3);
  });

  test("focus moves into the dialog and returns to the opener; the page behind does not scroll", async () => {
    const opener = document.createElement("button");
    opener.textContent = "Messages";
    document.body.appendChild(opener);
    opener.focus();
    const view = await open();
    expect(view.getByRole("dialog").contains(document.activeElement)).toBe(true);
    expect(document.body.style.overflow).toBe("hidden");
    view.unmount();
    expect(document.activeElement).toBe(opener);
    expect(document.body.style.overflow).toBe("");
    opener.remove();
  });

  test("Tab stays inside the dialog", async () => {
    const view = await open();
    const close = view.getByRole("button", { name: "Close" });
    close.focus();
    fireEvent.keyDown(close, { key: "Tab" });
    expect(document.activeElement).toBe(view.getByRole("button", { name: "Close dialog" }));
    fireEvent.keyDown(document.activeElement!, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(close);
  });
});
