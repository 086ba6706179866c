// Issue 23 item 8 on the broadcast screen: a sending broadcast has Stop, which asks first in the app's own dialog and
// then calls CancelBroadcast; a stopped one shows its Cancelled count and no Stop. Skipped counts apart from Failed.
import { describe, expect, test } from "bun:test";
import { fireEvent } from "@testing-library/react";
import { toasts } from "../../../web/shared/state/toasts.ts";
import { stopQuestion } from "../../../web/features/broadcast/components/StopBroadcastButton.tsx";
import { mockApi, onePage } from "../../helpers/mock-api.ts";
import { settle } from "../render-at.tsx";
import { broadcastSummary as broadcast, HISTORY, renderBroadcastScreen, useBroadcastScreen, whatsappReplies } from "./broadcast-screen.tsx";

const CANCEL = "/api/business/CancelBroadcast";
const api = mockApi();
const { calls, routes: replies } = api;
useBroadcastScreen(api, {
  replies: () => whatsappReplies([], 17),
});

const toastList = () => toasts.value.map((t) => [t.type, t.title, t.message]);
const sending = broadcast({ id: 6, state: "sending", queued: 30, sent: 10, delivered: 6, skipped: 2, completedAt: null });
const stopped = broadcast({ id: 6, state: "cancelled", queued: 0, sent: 10, delivered: 6, skipped: 2, cancelled: 30, cancelledAt: "2026-11-22T15:05:00.000Z" });

describe("Stop a sending broadcast", () => {
  test("asks first; Cancel keeps it sending and calls nothing", async () => {
    replies[`GET ${HISTORY}`] = { body: onePage([sending]) };
    const view = await renderBroadcastScreen();
    fireEvent.click(view.getByRole("button", { name: "Stop" }));
    const dialog = view.getByRole("dialog");
    expect(dialog.textContent).toContain("Stop this broadcast?");
    expect(view.getByTestId("stop-question").textContent).toBe(stopQuestion({ queued: 30, total: 48 }));
    expect(view.getByTestId("stop-question").textContent).toBe("30 of 48 messages not sent yet will be cancelled. Messages already on their way still arrive. This cannot be undone.");
    fireEvent.click(view.getByRole("button", { name: "Cancel" }));
    await settle();
    expect(view.queryByRole("dialog")).toBeNull();
    expect(calls.filter((c) => c.url.startsWith(CANCEL))).toEqual([]);
  });

  test("Stop sending: POST CancelBroadcast, the server's sentence in a toast, and the row shows Stopped with its Cancelled count", async () => {
    let current = sending;
    replies[`GET ${HISTORY}`] = () => ({ body: onePage([current]) });
    replies[`POST ${CANCEL}`] = () => {
      current = stopped;
      return { body: { message: "Broadcast stopped: 30 messages not yet sent were cancelled; messages already on their way will finish.", cancelled: 30, broadcast: stopped } };
    };
    const view = await renderBroadcastScreen();
    const row = () => view.getByTestId("broadcast-6");
    expect(row().textContent).toContain("Sending");
    fireEvent.click(view.getByRole("button", { name: "Stop" }));
    fireEvent.click(view.getByRole("button", { name: "Stop sending" }));
    await settle();
    const [post] = calls.filter((c) => c.url.startsWith(CANCEL));
    expect(post!.url).toBe(`${CANCEL}?broadcastId=6`);
    expect(toastList()).toEqual([["success", "Broadcast Stopped", "Broadcast stopped: 30 messages not yet sent were cancelled; messages already on their way will finish."]]);
    expect(row().querySelector(".bc-status")!.textContent).toBe("Stopped");
    expect([...row().querySelectorAll(".bc-count")].map((el) => el.textContent)).toEqual(["Queued0", "Sent10", "Delivered6", "Failed0", "Skipped2", "Cancelled30"]);
    expect(view.queryByRole("button", { name: "Stop" })).toBeNull();
  });

  test("a stop the server refuses (it finished meanwhile) shows its sentence", async () => {
    replies[`GET ${HISTORY}`] = { body: onePage([sending]) };
    replies[`POST ${CANCEL}`] = { status: 409, body: { error: "This broadcast has finished sending; there is nothing left to stop.", code: "conflict" } };
    const view = await renderBroadcastScreen();
    fireEvent.click(view.getByRole("button", { name: "Stop" }));
    fireEvent.click(view.getByRole("button", { name: "Stop sending" }));
    await settle();
    expect(toastList()).toEqual([["error", "Could not stop the broadcast", "This broadcast has finished sending; there is nothing left to stop."]]);
  });

  test("a completed or scheduled broadcast has no Stop", async () => {
    replies[`GET ${HISTORY}`] = { body: onePage([broadcast({ id: 5 })]) };
    const view = await renderBroadcastScreen();
    expect(view.queryByRole("button", { name: "Stop" })).toBeNull();
  });
});
