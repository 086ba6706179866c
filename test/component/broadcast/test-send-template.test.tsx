// Issue 23 item 6 on the broadcast screen: with a WhatsApp template chosen, the WhatsApp test sends it (ContentSid +
// ContentVariables) and says so; then the panel reads the test's status until it is final and shows "Delivered" or
// "Failed: <reason>".
import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { act, fireEvent, waitFor, within } from "@testing-library/react";
import type { TestStatus } from "../../../src/schemas/test-send.ts";
import { TEST_POLL_MS } from "../../../web/features/broadcast/components/TestOutcome.tsx";
import { TEST_SEND_LABEL } from "../../../web/features/broadcast/components/TestSendPanel.tsx";
import { currentUser } from "../../../web/shared/state/session.ts";
import { mockApi } from "../../helpers/mock-api.ts";
import { settle } from "../render-at.tsx";
import { renderBroadcastScreen, useBroadcastScreen, whatsappTemplate, whatsappReplies } from "./broadcast-screen.tsx";

const SEND_TEST = "/api/broadcast/SendTest";
const TEST_STATUS = "/api/broadcast/TestStatus";
const SID = "HX11111111111111111111111111111111";
const OWNER = { id: 3, email: "ana@bakery.com", firstName: "Ana", lastName: "Baker", role: "owner" as const, createdAt: "2026-01-01T00:00:00.000Z" };

const weeklyOffer = whatsappTemplate({ sid: SID });

const api = mockApi();
const { calls, routes: replies } = api;
useBroadcastScreen(api, {
  counts: { total: 3, sms: 1, whatsapp: 2 },
  replies: () => whatsappReplies([weeklyOffer], 2, 0),
});

beforeEach(() => {
  currentUser.value = { ...OWNER, phone: "+447400123458", phoneVerified: true, status: "approved" };
});
afterEach(() => {
  currentUser.value = null;
  jest.useRealTimers();
});

const callsTo = (key: string) => calls.filter((c) => `${c.method} ${c.url.split("?")[0]}` === key);
const status = (over: Partial<TestStatus>): TestStatus => ({
  id: 12, channel: "WhatsApp", to: "+447400123458", contentSid: SID, status: "Sent", providerStatus: "queued", reason: null, final: false, ...over,
});

/** The screen with the template chosen and filled, the text written and the test's channel set to WhatsApp. */
async function withTemplateChosen() {
  const view = await renderBroadcastScreen();
  const select = () => view.getByLabelText("WhatsApp template") as HTMLSelectElement;
  await waitFor(() => expect(select().options.length).toBe(2));
  fireEvent.change(select(), { target: { value: SID } });
  fireEvent.change(view.getByLabelText("{{1}}"), { target: { value: "Ana's Bakery" } });
  fireEvent.change(view.getByLabelText("{{2}}"), { target: { value: "Rye is back" } });
  view.type("Rye is back");
  fireEvent.change(within(view.container.querySelector<HTMLElement>(".bc-test")!).getByRole("combobox"), { target: { value: "WhatsApp" } });
  return view;
}

describe("the test with a WhatsApp template", () => {
  test("sends ContentSid + ContentVariables, then shows Queued and, after the delivery report, Delivered", async () => {
    const answers = [status({}), status({ status: "Delivered", providerStatus: "delivered", final: true })];
    let i = 0;
    replies[`GET ${TEST_STATUS}`] = () => ({ body: answers[Math.min(i++, answers.length - 1)] });
    replies[`POST ${SEND_TEST}`] = { body: { result: "sent", message: "Test sent by WhatsApp (template weekly_offer) to +447400123458.", to: "+447400123458", channel: "WhatsApp", providerId: "SM1", testId: 12 } };
    const view = await withTemplateChosen();
    expect(view.getByTestId("test-template").textContent).toBe("The WhatsApp test sends the chosen template, as your subscribers will get it.");
    jest.useFakeTimers();
    fireEvent.click(view.getByRole("button", { name: TEST_SEND_LABEL }));
    await settle();
    const form = callsTo(`POST ${SEND_TEST}`)[0]!.body as FormData;
    expect(form.get("Channel")).toBe("WhatsApp");
    expect(form.get("ContentSid")).toBe(SID);
    expect(JSON.parse(String(form.get("ContentVariables")))).toEqual({ "1": "Ana's Bakery", "2": "Rye is back" });
    expect(view.getByTestId("test-outcome").textContent).toBe("Test sent by WhatsApp (template weekly_offer) to +447400123458.");
    expect(callsTo(`GET ${TEST_STATUS}`)[0]!.url).toBe(`${TEST_STATUS}?id=12`);
    expect(view.getByTestId("test-delivery").textContent).toBe("Queued");
    await act(async () => void jest.advanceTimersByTime(TEST_POLL_MS));
    await settle();
    expect(view.getByTestId("test-delivery").textContent).toBe("Delivered");
    expect(view.getByTestId("test-delivery").className).toContain("is-ok");
    // Final: no more reads.
    await act(async () => void jest.advanceTimersByTime(TEST_POLL_MS * 5));
    await settle();
    expect(callsTo(`GET ${TEST_STATUS}`)).toHaveLength(2);
  });

  test("a failed delivery shows Failed with the reason", async () => {
    const reason = "WhatsApp refused a free-form message: it was more than 24 hours since the customer last wrote.";
    replies[`GET ${TEST_STATUS}`] = { body: status({ status: "Failed", providerStatus: "undelivered", reason, final: true }) };
    replies[`POST ${SEND_TEST}`] = { body: { result: "sent", message: "Test sent by WhatsApp (template weekly_offer) to +447400123458.", to: "+447400123458", channel: "WhatsApp", providerId: "SM1", testId: 12 } };
    const view = await withTemplateChosen();
    fireEvent.click(view.getByRole("button", { name: TEST_SEND_LABEL }));
    await settle();
    await waitFor(() => expect(view.getByTestId("test-delivery").textContent).toBe(`Failed: ${reason}`));
    expect(view.getByTestId("test-delivery").className).toContain("is-failed");
  });

  test("an SMS test sends no template", async () => {
    replies[`POST ${SEND_TEST}`] = { body: { result: "sent", message: "Test sent by SMS to +447400123458.", to: "+447400123458", channel: "SMS", providerId: "SM1", testId: 13 } };
    replies[`GET ${TEST_STATUS}`] = { body: status({ id: 13, channel: "SMS", contentSid: null, status: "Delivered", final: true }) };
    const view = await withTemplateChosen();
    fireEvent.change(within(view.container.querySelector<HTMLElement>(".bc-test")!).getByRole("combobox"), { target: { value: "SMS" } });
    expect(view.queryByTestId("test-template")).toBeNull();
    fireEvent.click(view.getByRole("button", { name: TEST_SEND_LABEL }));
    await settle();
    const form = callsTo(`POST ${SEND_TEST}`)[0]!.body as FormData;
    expect(form.get("ContentSid")).toBeNull();
  });
});
