// The broadcast screen's repeat dialog (issue 10, item 8): a 409 duplicate_broadcast opens "You sent this same message
// to N customers at HH:MM. Send it again?"; Send again resends with Confirm=true, Cancel sends nothing.
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/broadcast/broadcast-repeat.test.tsx
import { describe, expect, test } from "bun:test";
import { fireEvent } from "@testing-library/react";
import { repeatQuestion, timeOfDay } from "../../../web/features/broadcast/components/RepeatBroadcastDialog.tsx";
import { toasts } from "../../../web/shared/state/toasts.ts";
import { type Answer, mockApi } from "../../helpers/mock-api.ts";
import { settle } from "../render-at.tsx";
import { confirmSend, PUBLISH, renderBroadcastScreen, useBroadcastScreen } from "./broadcast-screen.tsx";

const STATUS = "/api/business/GetBroadcastStatus";
const EARLIER_AT = "2026-11-22T15:04:00.000Z";
const DUPLICATE: Answer = {
  status: 409,
  body: { error: "This business sent this same message less than 10 minutes ago.", code: "duplicate_broadcast", duplicateOf: 5 },
};

const api = mockApi();
const { calls, routes: replies } = api;
useBroadcastScreen(api, {
  replies: () => ({
    [`GET ${STATUS}`]: {
      body: { id: 5, businessId: 7, messageText: "Fresh croissants!", imagePath: null, createdAt: EARLIER_AT, total: 48, queued: 0, sent: 48, delivered: 0, failed: 0, skipped: 0, completedAt: null },
    },
  }),
});

async function sendOnce() {
  const view = await renderBroadcastScreen();
  view.type("Fresh croissants!");
  view.submit();
  await confirmSend(20);
  return view;
}

const publishes = () => calls.filter((c) => c.method === "POST" && c.url === PUBLISH).map((c) => c.body as FormData);
const at = timeOfDay(EARLIER_AT);

describe("the same message within 10 minutes", () => {
  test("the 409 opens the dialog naming the earlier broadcast's recipients and time; no toast, the text stays", async () => {
    replies[`POST ${PUBLISH}`] = DUPLICATE;
    const view = await sendOnce();
    const dialog = view.getByRole("dialog", { name: "Send the same message again?" });
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(view.getByText(`You sent this same message to 48 customers at ${at}. Send it again?`)).toBeTruthy();
    expect(calls.some((c) => c.url === `${STATUS}?id=5`)).toBe(true);
    expect(toasts.value).toEqual([]);
    expect((view.getByLabelText(/Message Text/) as HTMLTextAreaElement).value).toBe("Fresh croissants!");
    // Focus starts on Cancel: Enter does not send it twice by accident.
    expect(document.activeElement?.textContent).toBe("Cancel");
    expect(publishes()).toHaveLength(1);
    expect(publishes()[0]!.get("Confirm")).toBeNull();
  });

  test("Send again resends the same form with Confirm=true; on success the usual 'Message Sent!'", async () => {
    let n = 0;
    replies[`POST ${PUBLISH}`] = () => (++n === 1 ? DUPLICATE : { body: { message: "Broadcast queued: 48 messages to 48 subscribers.", broadcastId: 6, recipients: 48 } });
    const view = await sendOnce();
    fireEvent.click(view.getByRole("button", { name: "Send again" }));
    await settle(20);
    const [first, second] = publishes();
    expect(second!.get("Confirm")).toBe("true");
    expect(second!.get("MessageText")).toBe(first!.get("MessageText"));
    expect(second!.get("BusinessId")).toBe("7");
    expect(view.queryByRole("dialog")).toBeNull();
    expect(toasts.value.map((t) => [t.type, t.title, t.message])).toEqual([["success", "Message Sent!", "Broadcast queued: 48 messages to 48 subscribers."]]);
  });

  test("Cancel closes the dialog and sends nothing more; the form is as it was", async () => {
    replies[`POST ${PUBLISH}`] = DUPLICATE;
    const view = await sendOnce();
    fireEvent.click(view.getByRole("button", { name: "Cancel" }));
    await settle();
    expect(view.queryByRole("dialog")).toBeNull();
    expect(publishes()).toHaveLength(1);
    expect((view.getByLabelText(/Message Text/) as HTMLTextAreaElement).value).toBe("Fresh croissants!");
    expect(view.container.querySelector<HTMLButtonElement>("button[type=submit]")!.disabled).toBe(false);
  });

  test("the earlier broadcast cannot be read: the dialog still asks, without a count", async () => {
    replies[`POST ${PUBLISH}`] = DUPLICATE;
    replies[`GET ${STATUS}`] = { status: 500, body: { error: "x", code: "internal" } };
    const view = await sendOnce();
    expect(view.getByText("You sent this same message a few minutes ago. Send it again?")).toBeTruthy();
  });

  test("the question's wording", () => {
    expect(repeatQuestion({ id: 1, total: 1, createdAt: EARLIER_AT })).toBe(`You sent this same message to 1 customer at ${at}. Send it again?`);
    expect(repeatQuestion({ id: 1, total: 3, createdAt: null })).toBe("You sent this same message to 3 customers a few minutes ago. Send it again?");
    expect(at).toMatch(/^\d{1,2}:\d\d (AM|PM)$/);
  });
});
