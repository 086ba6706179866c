// The broadcast screen's "Send later" (issue 11 item 5) on happy-dom: the toggle shows a datetime-local picker, the
// time is sent as ScheduledFor with the browser's offset, the preview says when it goes, a missing or past time is
// refused before anything is sent; the history shows scheduled broadcasts with Edit / Cancel and cancelled ones.
// Run: npx bun test --preload ./test/helpers/happy-dom.ts test/component/broadcast/broadcast-schedule.test.tsx
import { describe, expect, test } from "bun:test";
import { fireEvent, waitFor } from "@testing-library/react";
import type { BroadcastSummary } from "../../../web/features/broadcast/api/broadcasts.ts";
import { formatWhen, sendLaterIso, toLocalInput, WHEN_PAST, WHEN_REQUIRED } from "../../../web/features/broadcast/components/SendLaterField.tsx";
import { BROADCAST_SCHEDULED } from "../../../web/features/broadcast/BroadcastPage.tsx";
import { toasts } from "../../../web/shared/state/toasts.ts";
import { mockApi, onePage } from "../../helpers/mock-api.ts";
import { settle } from "../render-at.tsx";
import { broadcastSummary, confirmSend, HISTORY, PUBLISH, renderBroadcastScreen, useBroadcastScreen } from "./broadcast-screen.tsx";

const CANCEL = "/api/business/CancelBroadcast";
const UPDATE = "/api/business/UpdateScheduledBroadcast";

const api = mockApi();
const { calls, routes: replies } = api;

/** Two days from now, fixed once for the file (whole minutes, as the picker shows them). */
const SCHEDULED_AT = new Date(Math.floor((Date.now() + 2 * 86_400_000) / 60_000) * 60_000).toISOString();

const scheduled = (over: Partial<BroadcastSummary> = {}): BroadcastSummary =>
  broadcastSummary({
    id: 9,
    messageText: "Doors open at 9 for the winter sale",
    total: 0,
    delivered: 0,
    completedAt: null,
    scheduledFor: SCHEDULED_AT,
    startedAt: null,
    state: "scheduled",
    ...over,
  });

useBroadcastScreen(api, { counts: { total: 2, sms: 2, whatsapp: 0 } });

async function renderPage() {
  const view = await renderBroadcastScreen();
  const toggle = () => view.getByRole("switch", { name: "Send later" }) as HTMLInputElement;
  const picker = () => view.container.querySelector<HTMLInputElement>("input[type=datetime-local]");
  return { ...view, toggle, picker };
}

const toastList = () => toasts.value.map((t) => [t.type, t.title, t.message]);
const callsTo = (key: string) => calls.filter((c) => `${c.method} ${c.url.split("?")[0]}` === key);

describe("sendLaterIso", () => {
  test("a datetime-local value gets the browser's offset for that date", () => {
    const d = new Date(2026, 10, 24, 9, 0);
    const off = -d.getTimezoneOffset();
    const sign = off >= 0 ? "+" : "-";
    const hh = String(Math.floor(Math.abs(off) / 60)).padStart(2, "0");
    const mm = String(Math.abs(off) % 60).padStart(2, "0");
    expect(sendLaterIso("2026-11-24T09:00")).toBe(`2026-11-24T09:00:00${sign}${hh}:${mm}`);
    expect(Date.parse(sendLaterIso("2026-11-24T09:00")!)).toBe(d.getTime());
    expect(sendLaterIso("")).toBeNull();
    expect(sendLaterIso("tomorrow")).toBeNull();
  });
});

describe("the Send later toggle", () => {
  test("off: no picker, Send Broadcast, no ScheduledFor; on: the picker, Schedule Broadcast", async () => {
    const view = await renderPage();
    expect(view.toggle().checked).toBe(false);
    expect(view.picker()).toBeNull();
    expect(view.sendButton().textContent).toBe("Send Broadcast");
    fireEvent.click(view.toggle());
    expect(view.toggle().checked).toBe(true);
    expect(view.picker()).not.toBeNull();
    expect(view.getByLabelText("Send on")).toBe(view.picker()!);
    expect(view.sendButton().textContent).toBe("Schedule Broadcast");
    fireEvent.click(view.toggle());
    expect(view.picker()).toBeNull();
  });

  test("no time or a past time: said at the field, nothing sent", async () => {
    const view = await renderPage();
    view.type("Doors open at 9");
    fireEvent.click(view.toggle());
    fireEvent.click(view.sendButton());
    await settle();
    expect(view.getByRole("alert").textContent).toBe(WHEN_REQUIRED);
    fireEvent.change(view.picker()!, { target: { value: toLocalInput(new Date(Date.now() - 3_600_000)) } });
    fireEvent.click(view.sendButton());
    await settle();
    expect(view.getByRole("alert").textContent).toBe(WHEN_PAST);
    expect(callsTo(`POST ${PUBLISH}`)).toHaveLength(0);
  });

  test("a time: the preview says when, ScheduledFor goes with the offset, the screen stays with the history", async () => {
    const at = toLocalInput(new Date(Date.now() + 86_400_000));
    replies[`POST ${PUBLISH}`] = { body: { message: "Broadcast scheduled for x.", broadcastId: 9, recipients: 2, scheduledFor: new Date(sendLaterIso(at)!).toISOString() } };
    const view = await renderPage();
    view.type("Doors open at 9");
    fireEvent.click(view.toggle());
    fireEvent.change(view.picker()!, { target: { value: at } });
    expect(view.getByTestId("preview-when").textContent).toMatch(/^Scheduled: goes out \w{3}, \w{3} \d{1,2}, \d{1,2}:\d{2} [AP]M$/);
    replies[`GET ${HISTORY}`] = { body: onePage([scheduled()]) };
    fireEvent.click(view.sendButton());
    // The confirm step names the time.
    await waitFor(() => expect(view.getByTestId("confirm-text").textContent).toContain(` at ${formatWhen(sendLaterIso(at)!)}:`));
    await confirmSend();
    await waitFor(() => expect(toastList()).toHaveLength(1));
    expect(toastList()[0]).toEqual(["success", BROADCAST_SCHEDULED, `It goes out ${formatWhen(sendLaterIso(at)!)} to whoever is subscribed then.`]);
    const form = callsTo(`POST ${PUBLISH}`)[0]!.body as FormData;
    expect(form.get("ScheduledFor")).toBe(sendLaterIso(at));
    expect(form.get("MessageText")).toBe("Doors open at 9");
    await waitFor(() => expect(view.getByTestId("broadcast-9").textContent).toContain("Scheduled"));
    expect(view.queryByText("My Business list")).toBeNull();
    expect(view.toggle().checked).toBe(false);
  });
});

describe("the history's scheduled broadcasts", () => {
  test("Edit and Cancel; Cancel asks the server and shows it Cancelled", async () => {
    replies[`GET ${HISTORY}`] = { body: onePage([scheduled()]) };
    const view = await renderPage();
    const row = () => view.getByTestId("broadcast-9");
    await waitFor(() => expect(row().textContent).toContain("Goes out"));
    expect(view.getByRole("button", { name: "Edit" })).toBeTruthy();
    replies[`POST ${CANCEL}`] = { body: { message: "Scheduled broadcast cancelled; it will not be sent.", broadcast: scheduled({ state: "cancelled" }) } };
    replies[`GET ${HISTORY}`] = { body: onePage([scheduled({ state: "cancelled", cancelledAt: new Date().toISOString() })]) };
    fireEvent.click(view.getByRole("button", { name: "Cancel scheduled broadcast" }));
    await waitFor(() => expect(row().textContent).toContain("Cancelled"));
    expect(callsTo(`POST ${CANCEL}`)[0]!.url).toBe("/api/business/CancelBroadcast?broadcastId=9");
    expect(view.queryByRole("button", { name: "Edit" })).toBeNull();
  });

  test("Edit sends the new text and time; a 409 (it started meanwhile) shows the server's sentence", async () => {
    replies[`GET ${HISTORY}`] = { body: onePage([scheduled()]) };
    const view = await renderPage();
    await waitFor(() => expect(view.getByRole("button", { name: "Edit" })).toBeTruthy());
    fireEvent.click(view.getByRole("button", { name: "Edit" }));
    fireEvent.change(view.getByLabelText("Message"), { target: { value: "Doors open at 10" } });
    const started = "This broadcast has already started sending; it can no longer be changed or cancelled.";
    replies[`POST ${UPDATE}`] = { status: 409, body: { error: started, code: "conflict" } };
    fireEvent.click(view.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(toastList()).toEqual([["error", "Could not change the broadcast", started]]));
    const form = callsTo(`POST ${UPDATE}`)[0]!.body as FormData;
    expect(form.get("BroadcastId")).toBe("9");
    expect(form.get("MessageText")).toBe("Doors open at 10");
    expect(Date.parse(String(form.get("ScheduledFor")))).toBe(Date.parse(SCHEDULED_AT)); // unchanged time, sent as it was
  });
});
