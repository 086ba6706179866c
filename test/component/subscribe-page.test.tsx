// The public subscribe page on happy-dom, fetch mocked.
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/subscribe-page.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import { Route, Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { consentText } from "../../src/schemas/consent.ts";
import { SUBSCRIBE_NOT_FOUND_TITLE, SubscribePage } from "../../web/pages/Subscribe.tsx";
import { type Reply, mockApi } from "../helpers/mock-api.ts";
import { until } from "../helpers/until.ts";

const api = mockApi();
const { calls, routes } = api;

const BUSINESS = {
  id: 5,
  name: "Sunrise Bakery",
  businessTypeId: 1,
  businessType: { id: 1, name: "Bakery" },
  address: "12 Market Street",
  phone: "(415) 555-0100",
  logoImagePath: null,
  sampleImagePath: "/uploads/0123456789abcdef0123456789abcdef.png",
  sampleProductText: "Two croissants for $3",
  qrMessage: "Scan me",
  successMessage: "Thanks! Deals are on their way.",
  messagesPerWeek: 6,
  doubleOptIn: false,
  isActive: true,
  createdAt: "2026-01-01T00:00:00.000Z",
};

beforeEach(() => {
  routes["GET /api/business/GetBusinessById"] = { body: BUSINESS };
  // Anything a test does not name answers 404, as the server does.
  api.fallback = { status: 404, body: { error: "Not found." } };
});

afterEach(() => {
  cleanup();
});

function renderAt(search: string) {
  const mem = memoryLocation({ path: "/subscribe", searchPath: search } as Parameters<typeof memoryLocation>[0]);
  return render(
    <Router hook={mem.hook} searchHook={mem.searchHook}>
      <Route path="/subscribe" component={SubscribePage} />
    </Router>,
  );
}

const consentLine = (c: HTMLElement) => c.querySelector("[data-testid=consent]")?.textContent;

describe("subscribe page", () => {
  test("shows the business, its sample offer and the consent line built by the shared function", async () => {
    const { container, findByText } = renderAt("id=5");
    expect(await findByText("Sunrise Bakery")).toBeTruthy();
    expect(container.textContent).toContain("Two croissants for $3");
    expect(container.querySelector<HTMLImageElement>(".sub-offer-img")?.getAttribute("src")).toBe(BUSINESS.sampleImagePath);
    expect(container.querySelector(".sub-mark")?.textContent).toBe("SB");
    expect(consentLine(container)).toBe(consentText({ name: "Sunrise Bakery", messagesPerWeek: 6 }));
    fireEvent.click(container.querySelector("input[value=WhatsApp]")!);
    expect(consentLine(container)).toBe(consentText({ name: "Sunrise Bakery", messagesPerWeek: 6 }, "WhatsApp"));
    expect(consentLine(container)).toContain("up to 6 per week");
    expect(consentLine(container)).toContain("Msg & data rates may apply. Reply STOP to cancel, HELP for help.");
    // The legal sentence links to the two pages; no consent box is there to be pre-checked (pressing Subscribe is it).
    const links = [...container.querySelectorAll<HTMLAnchorElement>("[data-testid=consent] a")].map((a) => [a.textContent, a.getAttribute("href")]);
    expect(links).toEqual([["Terms", "/terms"], ["Privacy Policy", "/privacy"]]);
    expect(container.querySelector("form input[type=checkbox]")).toBeNull();
    expect(calls[0]?.url).toBe("/api/business/GetBusinessById?id=5");
  });

  test("submitting empty shows the spec's texts and sends nothing", async () => {
    const { container, findByText } = renderAt("id=5");
    await findByText("Sunrise Bakery");
    fireEvent.submit(container.querySelector("form")!);
    expect(await findByText("Phone number is required")).toBeTruthy();
    expect(await findByText("Please select a contact preference")).toBeTruthy();
    fireEvent.change(container.querySelector("input[name=phone]")!, { target: { value: "abc" } });
    expect(await findByText("Please enter a valid phone number")).toBeTruthy();
    expect(calls.filter((c) => c.method === "POST")).toEqual([]);
  });

  test("a valid subscription sends the source and shows the business's success message", async () => {
    routes["POST /api/subscription/Subscribe"] = { body: { message: "Thanks! Deals are on their way." } };
    const { container, findByText } = renderAt("id=5&src=list");
    await findByText("Sunrise Bakery");
    fireEvent.change(container.querySelector("input[name=phone]")!, { target: { value: "(415) 555-0134" } });
    fireEvent.click(container.querySelector("input[value=SMS]")!);
    fireEvent.submit(container.querySelector("form")!);
    expect(await findByText("Thanks! Deals are on their way.")).toBeTruthy();
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ businessId: 5, phone: "(415) 555-0134", contactPreference: "SMS", source: "list" });
  });

  test("the success card is scrolled to the top (clear of the sticky header) and its heading focused", async () => {
    routes["POST /api/subscription/Subscribe"] = { body: { message: "Thanks! Deals are on their way." } };
    const scrolled: [Element, unknown][] = [];
    const realScroll = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element, arg?: unknown) {
      scrolled.push([this, arg]);
    } as typeof Element.prototype.scrollIntoView;
    try {
      const { container, findByText } = renderAt("id=5");
      await findByText("Sunrise Bakery");
      fireEvent.change(container.querySelector("input[name=phone]")!, { target: { value: "(415) 555-0134" } });
      fireEvent.click(container.querySelector("input[value=SMS]")!);
      fireEvent.submit(container.querySelector("form")!);
      await findByText("Thanks! Deals are on their way.");
      const card = container.querySelector(".sub-success")!;
      // The scroll runs in an effect after the card renders: wait for it rather than racing it.
      await until(() => scrolled.length > 0, 2000, "the success card to be scrolled into view");
      expect(scrolled.length).toBe(1);
      expect(scrolled[0]![0] === card).toBe(true);
      expect(scrolled[0]![1]).toEqual({ block: "start" });
      expect(document.activeElement?.textContent).toBe("You're subscribed!");
    } finally {
      Element.prototype.scrollIntoView = realScroll;
    }
  });

  test("too many attempts: the server's message is shown", async () => {
    routes["POST /api/subscription/Subscribe"] = {
      status: 429,
      body: { error: "Too many subscription attempts from your network. Please wait 10 minutes and try again.", code: "too_many_requests" },
      headers: { "retry-after": "600" },
    };
    const { container, findByText } = renderAt("id=5");
    await findByText("Sunrise Bakery");
    fireEvent.change(container.querySelector("input[name=phone]")!, { target: { value: "4155550134" } });
    fireEvent.click(container.querySelector("input[value=SMS]")!);
    fireEvent.submit(container.querySelector("form")!);
    expect(await findByText("Too many subscription attempts from your network. Please wait 10 minutes and try again.")).toBeTruthy();
  });

  for (const [name, search, reply] of [
    ["unknown business", "id=99", { status: 404, body: { error: "Business not found." } }],
    ["inactive business (an owner previewing their own)", "id=5", { body: { ...BUSINESS, isActive: false } }],
    ["no id", "", undefined],
    ["a bad id", "id=abc", undefined],
  ] as const) {
    test(`${name}: a clear not-found page`, async () => {
      if (reply) routes["GET /api/business/GetBusinessById"] = reply as Reply;
      const { findByText, container } = renderAt(search);
      expect(await findByText(SUBSCRIBE_NOT_FOUND_TITLE)).toBeTruthy();
      expect(container.querySelector("form")).toBeNull();
    });
  }

  test("the business closing between load and submit: not-found page", async () => {
    routes["POST /api/subscription/Subscribe"] = { status: 404, body: { error: "gone" } };
    const { container, findByText } = renderAt("id=5");
    await findByText("Sunrise Bakery");
    fireEvent.change(container.querySelector("input[name=phone]")!, { target: { value: "4155550134" } });
    fireEvent.click(container.querySelector("input[value=SMS]")!);
    fireEvent.submit(container.querySelector("form")!);
    expect(await findByText(SUBSCRIBE_NOT_FOUND_TITLE)).toBeTruthy();
    await waitFor(() => expect(container.querySelector("form") === null).toBe(true));
  });
});
