// The broadcast screen's Offer section (issue 25): no offer by default; one code for everyone (CouponCode, upper
// case); a unique code per person, which asks for {code} in the message and can put it there; a last day; each
// mistake said on the form before anything is sent.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/broadcast/offer-fields.test.tsx
import { expect, test } from "bun:test";
import { fireEvent } from "@testing-library/react";
import { EXAMPLE_COUPON, OFFER_CODE_INVALID, OFFER_EXPIRES_PAST, OFFER_NEEDS_PLACEHOLDER, OFFER_STRAY_PLACEHOLDER } from "../../../web/features/broadcast/components/OfferFields.tsx";
import { mockApi } from "../../helpers/mock-api.ts";
import { settle } from "../render-at.tsx";
import { confirmSend, ESTIMATE, PUBLISH, renderBroadcastScreen, useBroadcastScreen } from "./broadcast-screen.tsx";

const api = mockApi();
useBroadcastScreen(api, { replies: () => ({ [`POST ${PUBLISH}`]: { body: { message: "Broadcast queued: 48 messages to 48 subscribers.", broadcastId: 9, recipients: 48 } } }) });

const published = () => api.calls.filter((c) => `${c.method} ${c.url}` === `POST ${PUBLISH}`).map((c) => c.body as FormData);
const asked = () => api.calls.filter((c) => c.url === ESTIMATE);
const pad = (n: number) => String(n).padStart(2, "0");
const day = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

async function screenWithOffer(kind: "" | "shared" | "unique") {
  const s = await renderBroadcastScreen();
  fireEvent.change(s.getByLabelText("Coupon"), { target: { value: kind } });
  return s;
}

test("no offer: the publish carries none of the offer's fields", async () => {
  const s = await renderBroadcastScreen();
  expect((s.getByLabelText("Coupon") as HTMLSelectElement).value).toBe("");
  expect(s.queryByLabelText("Code")).toBeNull();
  s.type("Fresh bread at 7");
  s.submit();
  await confirmSend();
  const [form] = published();
  expect([form!.get("CouponCode"), form!.get("UniqueCoupons"), form!.get("CouponExpires")]).toEqual([null, null, null]);
});

test("one code for everyone, with a last day: CouponCode upper case and CouponExpires", async () => {
  const s = await screenWithOffer("shared");
  fireEvent.change(s.getByLabelText("Code"), { target: { value: "save-10" } });
  const last = day(new Date(Date.now() + 7 * 86_400_000));
  fireEvent.change(s.getByLabelText("Valid until (optional)"), { target: { value: last } });
  s.type("Say SAVE-10 at the till");
  s.submit();
  await confirmSend();
  const [form] = published();
  expect([form!.get("CouponCode"), form!.get("UniqueCoupons"), form!.get("CouponExpires")]).toEqual(["SAVE-10", null, last]);
});

test("a unique code per person: asks for {code}, Insert puts it at the cursor, then UniqueCoupons=true", async () => {
  const s = await screenWithOffer("unique");
  expect(s.getByText(/Put \{code\} in your message where the code goes/)).toBeTruthy();
  s.type("Show  at the till");
  s.submit();
  await settle();
  expect(s.getByText(OFFER_NEEDS_PLACEHOLDER)).toBeTruthy();
  expect(asked()).toHaveLength(0);

  const textarea = s.textarea();
  textarea.setSelectionRange(5, 5);
  fireEvent.click(s.getByRole("button", { name: "Insert {code}" }));
  expect(textarea.value).toBe("Show {code} at the till");
  expect((s.getByRole("button", { name: "Insert {code}" }) as HTMLButtonElement).disabled).toBe(true);
  // The preview shows a code of the real length where {code} is.
  expect(s.getByText(`Show ${EXAMPLE_COUPON} at the till`)).toBeTruthy();
  s.submit();
  await confirmSend();
  const [form] = published();
  expect([form!.get("MessageText"), form!.get("UniqueCoupons"), form!.get("CouponCode")]).toEqual(["Show {code} at the till", "true", null]);
  // The estimate counts {code} as a person's code.
  expect(asked()[0]!.body).toMatchObject({ messageText: "Show {code} at the till", uniqueCoupons: true });
});

test("mistakes are said on the form and nothing is sent: a bad code, {code} without unique codes, a past day", async () => {
  const s = await screenWithOffer("shared");
  fireEvent.change(s.getByLabelText("Code"), { target: { value: "ab" } });
  fireEvent.change(s.getByLabelText("Valid until (optional)"), { target: { value: day(new Date(Date.now() - 2 * 86_400_000)) } });
  s.type("Show {code}");
  s.submit();
  await settle();
  expect(s.getByText(OFFER_CODE_INVALID)).toBeTruthy();
  expect(s.getByText(OFFER_STRAY_PLACEHOLDER)).toBeTruthy();
  expect(s.getByText(OFFER_EXPIRES_PAST)).toBeTruthy();
  expect(asked()).toHaveLength(0);
  expect(published()).toHaveLength(0);
});
