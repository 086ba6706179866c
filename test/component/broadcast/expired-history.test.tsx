// Issue 23, item 5: the history counts messages that expired before the recipients' quiet hours apart from failures,
// and its Retry offers to send them in the next window.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/broadcast/expired-history.test.tsx
import { expect, test } from "bun:test";
import { fireEvent } from "@testing-library/react";
import { mockApi, onePage } from "../../helpers/mock-api.ts";
import { settle } from "../render-at.tsx";
import { broadcastSummary as broadcast, HISTORY, renderBroadcastScreen, useBroadcastScreen, whatsappReplies } from "./broadcast-screen.tsx";

const RETRY = "/api/business/RetryFailedDeliveries";
const api = mockApi();
const { calls, routes: replies } = api;
useBroadcastScreen(api, {
  replies: () => whatsappReplies([], 0),
});

test("expired ones: their own count (not in Failed), counted as processed, a line that says why, and 'Send in the next window'", async () => {
  replies[`GET ${HISTORY}`] = { body: onePage([broadcast({ id: 6, delivered: 45, failed: 0, expired: 3, retryable: 3 })]) };
  replies[`POST ${RETRY}`] = { body: { message: "Requeued 3 failed messages.", requeued: 3 } };
  const view = await renderBroadcastScreen("7");
  const six = view.getByTestId("broadcast-6");
  expect([...six.querySelectorAll(".bc-count")].map((el) => el.textContent)).toEqual(["Queued0", "Sent0", "Delivered45", "Failed0", "Skipped0", "Expired3"]);
  expect(six.querySelector('[role="progressbar"]')!.getAttribute("aria-valuetext")).toBe("48 of 48 processed");
  expect(six.textContent).not.toContain("Completed with failures");
  expect(view.getByTestId("bc-expired").textContent).toBe(
    "3 expired before quiet hours: Twilio could not deliver them before the recipients' evening. Send in the next window sends them in their next window.",
  );
  fireEvent.click(view.getByRole("button", { name: "Send in the next window" }));
  await settle();
  expect(calls.filter((c) => c.method === "POST").map((c) => c.url)).toEqual([`${RETRY}?broadcastId=6`]);
});

test("failures and expired ones together: 'Retry failed' sends both; none of either: no button, no line", async () => {
  replies[`GET ${HISTORY}`] = { body: onePage([broadcast({ id: 6, delivered: 44, failed: 3, expired: 1, retryable: 4 }), broadcast({ id: 5 })]) };
  const view = await renderBroadcastScreen("7");
  expect(view.getByTestId("broadcast-6").querySelector(".bc-retry")!.textContent).toBe("Retry failed");
  expect(view.getByTestId("bc-expired").textContent).toBe(
    "1 expired before quiet hours: Twilio could not deliver it before the recipients' evening. Retry failed sends it in their next window.",
  );
  const five = view.getByTestId("broadcast-5");
  expect(five.querySelector(".bc-retry")).toBeNull();
  expect(five.querySelector(".bc-count-expired")).toBeNull();
  expect(five.querySelector('[data-testid="bc-expired"]')).toBeNull();
});
