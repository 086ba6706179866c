// The Redeem screen (issue 25): each answer of POST /api/coupon/Redeem as its big panel, the fields cleared and the
// code field focused for the next customer, and a phone that is nobody's under the phone field.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/coupons
import { afterEach, beforeEach, expect, test } from "bun:test";
import { cleanup, fireEvent, render } from "@testing-library/react";
import { COUPON_NO_SUBSCRIBER, COUPON_TOO_MANY_TRIES, COUPON_UNKNOWN, COUPON_USED, REDEEM_CODE_REQUIRED } from "../../../src/schemas/coupons.ts";
import { RedeemPage } from "../../../web/features/coupons/index.ts";
import { RESULT_UNKNOWN, RESULT_VALID, RESULT_WAIT } from "../../../web/features/coupons/components/RedeemResultPanel.tsx";
import { type Answer, mockApi } from "../../helpers/mock-api.ts";
import { captureConsoleErrors } from "../console-errors.ts";
import { settle } from "../render-at.tsx";
import { signIn } from "../sign-in.ts";

const api = mockApi();
captureConsoleErrors();
const REDEEM = "POST /api/coupon/Redeem";

beforeEach(() => signIn("owner"));
afterEach(() => {
  cleanup();
  signIn(null);
});

const REDEEMED = {
  status: "redeemed",
  redeemedAt: "2026-11-27T15:04:00.000Z",
  code: "AB3K9QPM",
  kind: "unique",
  broadcastId: 4,
  businessName: "Rosa's Bakery",
  expiresAt: "2026-12-31T12:00:00.000Z",
  customer: { id: 9, phoneMasked: "•••• 0134" },
};

async function redeem(answer: Answer, code = "ab3k 9qpm", phone = "") {
  api.routes[REDEEM] = answer;
  const view = render(<RedeemPage />);
  const codeInput = view.getByLabelText("Code") as HTMLInputElement;
  fireEvent.change(codeInput, { target: { value: code } });
  if (phone) fireEvent.change(view.getByLabelText("Customer's phone (optional)"), { target: { value: phone } });
  fireEvent.click(view.getByRole("button", { name: "Redeem" }));
  await settle();
  const panel = view.container.querySelector<HTMLElement>("[data-testid=redeem-result]");
  return { view, codeInput, panel, title: panel?.querySelector(".redeem-result-title")?.textContent ?? null };
}

test("the code field: big, autofocused, capitalised, not autocorrected", () => {
  const view = render(<RedeemPage />);
  const input = view.getByLabelText("Code") as HTMLInputElement;
  expect(document.activeElement).toBe(input);
  expect([input.getAttribute("autocapitalize"), input.getAttribute("inputmode"), input.getAttribute("autocomplete"), input.getAttribute("enterkeyhint")]).toEqual(["characters", "text", "off", "go"]);
});

test("valid: green, with the code, the shop, the customer and the last day; the fields clear and the code field has the focus", async () => {
  const { panel, title, codeInput, view } = await redeem({ body: REDEEMED }, "ab3k 9qpm", "(415) 555-0134");
  expect(title).toBe(RESULT_VALID);
  expect(panel!.className).toContain("redeem-valid");
  expect(panel!.textContent).toContain("AB3K9QPM · Rosa's Bakery");
  expect(panel!.textContent).toContain("Customer •••• 0134");
  expect(panel!.textContent).toContain("Valid until Dec 31, 2026");
  expect(api.calls.map((c) => [c.method, c.url, c.body])).toEqual([["POST", "/api/coupon/Redeem", { code: "ab3k 9qpm", phone: "(415) 555-0134" }]]);
  expect(codeInput.value).toBe("");
  expect((view.getByLabelText("Customer's phone (optional)") as HTMLInputElement).value).toBe("");
  expect(document.activeElement).toBe(codeInput);
  // The panel is inside a live region, so a screen reader hears it.
  expect(panel!.parentElement!.getAttribute("role")).toBe("status");
});

test("already used: amber, with the first time", async () => {
  const { panel, title } = await redeem({ status: 409, body: { error: COUPON_USED, code: "coupon_used", fields: { code: COUPON_USED }, redeemedAt: "2026-11-20T18:30:00.000Z" } });
  const when = new Date("2026-11-20T18:30:00.000Z").toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
  expect(title).toBe(`Already used on ${when}`);
  expect(panel!.className).toContain("redeem-used");
  expect(panel!.textContent).toContain("AB3K9QPM");
});

test("expired: red, with its last day", async () => {
  const { panel, title } = await redeem({ status: 410, body: { error: "This code has expired.", code: "coupon_expired", fields: { code: "x" }, expiredAt: "2026-11-10T12:00:00.000Z" } });
  expect(title).toBe("Expired on Nov 10, 2026");
  expect(panel!.className).toContain("redeem-expired");
});

test("unknown: grey", async () => {
  const { panel, title } = await redeem({ status: 404, body: { error: COUPON_UNKNOWN, code: "not_found" } });
  expect(title).toBe(RESULT_UNKNOWN);
  expect(panel!.className).toContain("redeem-unknown");
});

test("too many unknown codes: wait a minute", async () => {
  const { title } = await redeem({ status: 429, headers: { "retry-after": "42" }, body: { error: COUPON_TOO_MANY_TRIES, code: "too_many_requests" } });
  expect(title).toBe(RESULT_WAIT);
});

test("a phone that is no subscriber's: said under the phone field, no panel, the code kept", async () => {
  const { panel, view, codeInput } = await redeem({ status: 404, body: { error: COUPON_NO_SUBSCRIBER, code: "not_found", fields: { phone: COUPON_NO_SUBSCRIBER } } }, "SAVE10", "(415) 555-0199");
  expect(panel).toBeNull();
  expect(view.getByText(COUPON_NO_SUBSCRIBER)).toBeTruthy();
  expect(codeInput.value).toBe("SAVE10");
});

test("no code: nothing sent, the field says so", async () => {
  const { view, panel } = await redeem({ body: REDEEMED }, "   ");
  expect(api.calls).toEqual([]);
  expect(panel).toBeNull();
  expect(view.getByText(REDEEM_CODE_REQUIRED)).toBeTruthy();
});

test("typing the next code puts the last answer away; Next customer too", async () => {
  const { view, codeInput } = await redeem({ body: REDEEMED });
  fireEvent.change(codeInput, { target: { value: "Z" } });
  expect(view.container.querySelector("[data-testid=redeem-result]")).toBeNull();
  fireEvent.change(codeInput, { target: { value: "SAVE10" } });
  fireEvent.click(view.getByRole("button", { name: "Redeem" }));
  await settle();
  expect(view.container.querySelector("[data-testid=redeem-result]")).not.toBeNull();
  fireEvent.click(view.getByRole("button", { name: "Next customer" }));
  expect(view.container.querySelector("[data-testid=redeem-result]")).toBeNull();
  expect(document.activeElement).toBe(codeInput);
});
