// Issue 11, item 6 on the broadcast screen: the confirm dialog before a send ("Send to N customers: M messages
// (S segments), about $X", Send/Cancel, "at <time>" when scheduled), and the "Send a test to my phone" panel with the
// owner's own number (its button's states, the number entered and changed, the answer shown).
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/broadcast/before-send.test.tsx
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { fireEvent, waitFor, within } from "@testing-library/react";
import { confirmText } from "../../../web/features/broadcast/components/ConfirmSendDialog.tsx";
import { ADD_PHONE_FIRST, TEST_SEND_LABEL, TEST_SENDING_LABEL, VERIFY_PHONE_FIRST, WRITE_FIRST } from "../../../web/features/broadcast/components/TestSendPanel.tsx";
import { NOT_VERIFIED_BADGE, SEND_CODE_LABEL } from "../../../web/features/broadcast/components/VerifyPhone.tsx";
import { currentUser } from "../../../web/shared/state/session.ts";
import { toasts } from "../../../web/shared/state/toasts.ts";
import { PNG } from "../../helpers/images.ts";
import { type Answer, mockApi } from "../../helpers/mock-api.ts";
import { settle } from "../render-at.tsx";
import { ESTIMATE, ESTIMATE_48, PUBLISH, renderBroadcastScreen, useBroadcastScreen } from "./broadcast-screen.tsx";

const SEND_TEST = "/api/broadcast/SendTest";
const MY_PHONE = "/api/auth/UpdateMyPhone";
const OWNER = { id: 3, email: "ana@bakery.com", firstName: "Ana", lastName: "Baker", role: "owner" as const, createdAt: "2026-01-01T00:00:00.000Z" };

const api = mockApi();
const { calls, routes: replies } = api;

useBroadcastScreen(api, {
  replies: () => ({ [`POST ${PUBLISH}`]: { body: { message: "Broadcast queued: 48 messages to 48 subscribers.", broadcastId: 9, recipients: 48 } } }),
});

beforeEach(() => {
  currentUser.value = { ...OWNER, phone: "+14155550199", phoneVerified: true, status: "approved" };
});

afterEach(() => {
  currentUser.value = null;
});

async function renderPage() {
  const view = await renderBroadcastScreen();
  const testButton = () => view.getByRole("button", { name: new RegExp(`${TEST_SEND_LABEL}|${TEST_SENDING_LABEL}`) }) as HTMLButtonElement;
  return { ...view, testButton };
}

const callsTo = (key: string) => calls.filter((c) => `${c.method} ${c.url.split("?")[0]}` === key);

describe("the confirm step", () => {
  test("Send Broadcast asks first: the estimate's sentence, the details, focus on Cancel; nothing published yet", async () => {
    const view = await renderPage();
    view.type("Fresh croissants!");
    view.submit();
    await settle();
    const dialog = view.getByRole("dialog", { name: "Send this broadcast?" });
    expect(view.getByTestId("confirm-text").textContent).toBe("Send to 48 customers: 48 messages (48 segments), about $0.40.");
    expect(dialog.textContent).toContain("31 by SMS, 1 segment each (GSM-7)");
    expect(dialog.textContent).toContain("17 by WhatsApp");
    expect(document.activeElement?.textContent).toBe("Cancel");
    expect(callsTo(`POST ${ESTIMATE}`)[0]!.body).toEqual({ businessId: "7", messageText: "Fresh croissants!", hasImage: false, withTemplate: false, trackLinks: true, uniqueCoupons: false });
    expect(callsTo(`POST ${PUBLISH}`)).toHaveLength(0);
  });

  test("Send publishes once; Cancel publishes nothing and keeps the text", async () => {
    const view = await renderPage();
    view.type("Fresh croissants!");
    view.submit();
    await settle();
    fireEvent.click(view.getByRole("button", { name: "Cancel" }));
    await settle();
    expect(view.queryByRole("dialog")).toBeNull();
    expect(callsTo(`POST ${PUBLISH}`)).toHaveLength(0);
    expect((view.getByLabelText(/Message Text/) as HTMLTextAreaElement).value).toBe("Fresh croissants!");
    view.submit();
    await settle();
    fireEvent.click(view.getByRole("button", { name: "Send" }));
    await settle();
    expect(callsTo(`POST ${PUBLISH}`)).toHaveLength(1);
    expect(toasts.value.map((t) => t.title)).toEqual(["Message Sent!"]);
  });

  test("the sentence: sandbox, a cost under a cent, a scheduled time", () => {
    expect(confirmText({ ...ESTIMATE_48, estimatedCost: null }, null)).toBe("Send to 48 customers: 48 messages (48 segments), no cost in the sandbox.");
    expect(confirmText({ ...ESTIMATE_48, recipients: 1, messages: 1, totalSegments: 1, estimatedCost: 0.0083 }, null)).toBe("Send to 1 customer: 1 message (1 segment), under $0.01.");
    expect(confirmText(ESTIMATE_48, "Tue, Nov 24, 9:00 AM")).toBe("Send to 48 customers at Tue, Nov 24, 9:00 AM: 48 messages (48 segments), about $0.40.");
  });

  test("with an image the estimate is asked for an MMS and the dialog says so", async () => {
    replies[`POST ${ESTIMATE}`] = { body: { ...ESTIMATE_48, mms: true, segmentsPerMessage: 1, estimatedCost: 0.91 } };
    const realCreate = URL.createObjectURL;
    URL.createObjectURL = (() => "blob:promo") as typeof URL.createObjectURL;
    try {
      const view = await renderPage();
      view.type("Look!");
      fireEvent.change(view.container.querySelector<HTMLInputElement>("input[type=file]")!, { target: { files: [new File([new Uint8Array(PNG)], "promo.png", { type: "image/png" })] } });
      await waitFor(() => expect(view.container.querySelector(".bc-image-choose")!.getAttribute("aria-busy")).toBe("false"));
      view.submit();
      await settle();
      expect((callsTo(`POST ${ESTIMATE}`)[0]!.body as { hasImage: boolean }).hasImage).toBe(true);
      expect(view.getByRole("dialog").textContent).toContain("31 by MMS (the image makes each SMS one MMS)");
      expect(view.getByTestId("confirm-text").textContent).toContain("about $0.91");
    } finally {
      URL.createObjectURL = realCreate;
    }
  });

  test("the cost line shows how it is made: 1,473 MMS × the MMS price = the total, not a per-segment price", async () => {
    replies[`POST ${ESTIMATE}`] = { body: { ...ESTIMATE_48, recipients: 1473, sms: 1473, whatsapp: 0, messages: 1473, totalSegments: 1473, mms: true, segmentsPerMessage: 1, estimatedCost: 36.6777 } };
    const view = await renderPage();
    view.type("Look!");
    view.submit();
    await settle();
    expect(view.getByTestId("confirm-text").textContent).toContain("about $36.68");
    const cost = view.getByTestId("confirm-cost").textContent ?? "";
    expect(cost).toContain("MMS: 1,473 MMS × $0.0249 = $36.68");
    expect(cost).not.toContain("per segment");
  });

  test("a failed estimate is an error toast and nothing is sent", async () => {
    replies[`POST ${ESTIMATE}`] = { status: 500, body: { error: "Database busy", code: "internal" } };
    const view = await renderPage();
    view.type("Hello");
    view.submit();
    await settle();
    expect(view.queryByRole("dialog")).toBeNull();
    expect(toasts.value.map((t) => t.type)).toEqual(["error"]);
    expect(callsTo(`POST ${PUBLISH}`)).toHaveLength(0);
  });
});

describe("Send a test to my phone", () => {
  test("states: disabled until there is text; then it sends the text (and channel) and shows what happened", async () => {
    let release!: (a: Answer) => void;
    replies[`POST ${SEND_TEST}`] = () => new Promise<Answer>((r) => (release = r));
    const view = await renderPage();
    expect(view.getByTestId("my-phone").textContent).toBe("+14155550199");
    expect(view.testButton().disabled).toBe(true);
    expect(view.getByTestId("test-hint").textContent).toBe(WRITE_FIRST);
    view.type("  Fresh croissants!  ");
    expect(view.testButton().disabled).toBe(false);
    fireEvent.change(within(view.container.querySelector<HTMLElement>(".bc-test")!).getByRole("combobox"), { target: { value: "WhatsApp" } });
    fireEvent.click(view.testButton());
    await settle();
    expect(view.testButton().textContent).toBe(TEST_SENDING_LABEL);
    expect(view.testButton().disabled).toBe(true);
    const form = callsTo(`POST ${SEND_TEST}`)[0]!.body as FormData;
    expect(form.get("BusinessId")).toBe("7");
    expect(form.get("MessageText")).toBe("Fresh croissants!");
    expect(form.get("Channel")).toBe("WhatsApp");
    release({ body: { result: "sent", message: "Test sent by WhatsApp to +14155550199.", to: "+14155550199", channel: "WhatsApp", providerId: "SM1" } });
    await settle();
    expect(view.getByTestId("test-outcome").textContent).toBe("Test sent by WhatsApp to +14155550199.");
    expect(view.testButton().textContent).toBe(TEST_SEND_LABEL);
    // A test is not a broadcast: no estimate, no publish, no dialog.
    expect(callsTo(`POST ${PUBLISH}`)).toHaveLength(0);
    expect(callsTo(`POST ${ESTIMATE}`)).toHaveLength(0);
    expect(view.queryByRole("dialog")).toBeNull();
  });

  test("a failed send and a 429 are shown with their reason", async () => {
    replies[`POST ${SEND_TEST}`] = { body: { result: "failed", message: "The test to +14155550199 was not sent: Invalid 'To' Phone Number (error 21211)", to: "+14155550199", channel: "SMS", reason: "x" } };
    const view = await renderPage();
    view.type("Hello");
    fireEvent.click(view.testButton());
    await settle();
    expect(view.getByTestId("test-outcome").className).toContain("is-failed");
    expect(view.getByTestId("test-outcome").textContent).toContain("error 21211");
    replies[`POST ${SEND_TEST}`] = { status: 429, body: { error: "At most 10 test messages a minute. Please wait a moment.", code: "too_many_requests" } };
    fireEvent.click(view.testButton());
    await settle();
    expect(view.getByTestId("test-outcome").textContent).toBe("At most 10 test messages a minute. Please wait a moment.");
  });

  test("no number yet: the field asks for it, the button waits; a bad number is said at the field; a good one is saved", async () => {
    currentUser.value = { ...OWNER, phone: null };
    const view = await renderPage();
    view.type("Hello");
    expect(view.testButton().disabled).toBe(true);
    expect(view.getByTestId("test-hint").textContent).toBe(ADD_PHONE_FIRST);
    const input = view.getByLabelText("Your mobile number") as HTMLInputElement;
    replies[`PUT ${MY_PHONE}`] = { status: 400, body: { error: "Please enter a valid mobile number, e.g. +1 415 555 0134.", code: "validation_failed", fields: { phone: "Please enter a valid mobile number, e.g. +1 415 555 0134." } } };
    fireEvent.change(input, { target: { value: "12" } });
    // Enter saves the number; it never sends the broadcast.
    fireEvent.keyDown(input, { key: "Enter" });
    await settle();
    expect(within(view.container.querySelector<HTMLElement>(".bc-test")!).getByRole("alert").textContent).toBe("Please enter a valid mobile number, e.g. +1 415 555 0134.");
    expect(callsTo(`POST ${ESTIMATE}`)).toHaveLength(0);
    replies[`PUT ${MY_PHONE}`] = { body: { ...OWNER, phone: "+14155550123" } };
    fireEvent.change(input, { target: { value: "(415) 555-0123" } });
    fireEvent.click(view.getByRole("button", { name: "Save number" }));
    await settle();
    expect(callsTo(`PUT ${MY_PHONE}`).at(-1)!.body).toEqual({ phone: "(415) 555-0123" });
    await waitFor(() => expect(view.getByTestId("my-phone").textContent).toBe("+14155550123"));
    expect(currentUser.value?.phone).toBe("+14155550123");
    // A new number is not verified yet (issue 21): the test waits for the code step.
    expect(view.testButton().disabled).toBe(true);
    expect(view.getByTestId("test-hint").textContent).toBe(VERIFY_PHONE_FIRST);
    expect(view.getByTestId("phone-badge").textContent).toBe(NOT_VERIFIED_BADGE);
    expect(view.getByRole("button", { name: SEND_CODE_LABEL })).toBeDefined();
  });

  test("Change opens the field with the number; Keep goes back without saving", async () => {
    const view = await renderPage();
    fireEvent.click(view.getByRole("button", { name: "Change" }));
    expect((view.getByLabelText("Your mobile number") as HTMLInputElement).value).toBe("+14155550199");
    fireEvent.click(view.getByRole("button", { name: "Keep +14155550199" }));
    expect(view.getByTestId("my-phone").textContent).toBe("+14155550199");
    expect(callsTo(`PUT ${MY_PHONE}`)).toHaveLength(0);
  });
});
