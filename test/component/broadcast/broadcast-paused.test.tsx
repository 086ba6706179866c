// Issue 23 item 2: a broadcast held back by an account problem says so in the history ("Paused: <reason>"), with a
// Paused badge instead of Sending, and no Retry (nothing failed).
import { describe, expect, test } from "bun:test";
import { mockApi, onePage } from "../../helpers/mock-api.ts";
import { broadcastSummary as broadcast, HISTORY, renderBroadcastScreen, useBroadcastScreen } from "./broadcast-screen.tsx";

const api = mockApi();
const { routes: replies } = api;
useBroadcastScreen(api);

const REASON = "Paused: Twilio refused the credentials (the auth token was changed or revoked) (Twilio: Authenticate)";

describe("a paused broadcast in the history", () => {
  test("the Paused badge and the reason; nothing counted as failed, no Retry", async () => {
    replies[`GET ${HISTORY}`] = {
      body: onePage([
        broadcast({ id: 9, total: 30, sent: 12, queued: 18, failed: 0, completedAt: null, state: "sending", paused: REASON }),
        broadcast({ id: 8, total: 5, sent: 2, queued: 3, completedAt: null, state: "sending" }),
      ]),
    };
    const view = await renderBroadcastScreen();
    const nine = view.getByTestId("broadcast-9");
    expect(nine.querySelector(".bc-status")!.textContent).toBe("Paused");
    expect(nine.querySelector('[data-testid="bc-paused"]')!.textContent).toBe(`${REASON}. The messages wait and go once it is fixed; nobody is marked failed.`);
    expect(nine.querySelector('[data-testid="bc-paused"]')!.getAttribute("role")).toBe("status");
    expect(nine.querySelector(".bc-retry")).toBeNull();
    // Another broadcast still sending says Sending, with no pause line.
    const eight = view.getByTestId("broadcast-8");
    expect(eight.querySelector(".bc-status")!.textContent).toBe("Sending");
    expect(eight.querySelector('[data-testid="bc-paused"]')).toBeNull();
  });
});
