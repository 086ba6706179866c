// The session ends while a broadcast is being written (issue 23, item 12): Send offers "Sign in again" instead of a
// dead-end toast, the draft is kept, and after signing in the owner is back on the form with the text intact.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/broadcast/session-ended.test.tsx
import { afterEach, describe, expect, test } from "bun:test";
import { act, fireEvent } from "@testing-library/react";
import { DRAFT_BACK, IMAGE_AGAIN, SESSION_ENDED_TEXT } from "../../../web/features/broadcast/components/SessionEnded.tsx";
import { token } from "../../../web/shared/state/session.ts";
import { toasts } from "../../../web/shared/state/toasts.ts";
import { mockApi } from "../../helpers/mock-api.ts";
import { settle } from "../render-at.tsx";
import { confirmSend, ESTIMATE, PUBLISH, renderBroadcastScreen, useBroadcastScreen } from "./broadcast-screen.tsx";

const api = mockApi();
const EXPIRED = { status: 401, body: { error: "Authentication required.", code: "unauthorized" } };
useBroadcastScreen(api);

afterEach(() => {
  sessionStorage.clear();
  token.value = null;
});

const TEXT = "Fresh croissants 20% off until noon! Show this text at the counter.";

/** The screen with TEXT written and Send pressed; the way back offered (Sign in again), not a dead-end toast. */
async function writeAndSend(confirm: boolean) {
  const view = await renderBroadcastScreen();
  view.type(TEXT);
  view.submit();
  if (confirm) await confirmSend();
  else await settle();
  expect(view.getByText(SESSION_ENDED_TEXT).closest("[role=alert]")).toBeTruthy();
  expect(toasts.value.map((t) => t.title)).not.toContain("Session Expired");
  return view;
}

describe("the session ends while writing", () => {
  test("Send answered 401: no dead end; Sign in again keeps the draft and opens Login returning here", async () => {
    token.value = "owner-token";
    api.routes[`POST ${PUBLISH}`] = EXPIRED;
    const view = await writeAndSend(true);
    expect(view.textarea().value).toBe(TEXT);
    // Focused, so a phone scrolls it into view from the Send button far below.
    expect(document.activeElement).toBe(view.getByRole("button", { name: "Sign in again" }));
    await act(async () => {
      fireEvent.click(view.getByRole("button", { name: "Sign in again" }));
    });
    expect(view.at()).toBe("/login?next=/businesses/broadcast/7");
    expect(token.value).toBeNull();
    expect(localStorage.getItem("token")).toBeNull();
    expect(JSON.parse(sessionStorage.getItem("nearcast.broadcast-draft.7")!)).toEqual({ text: TEXT, later: false, laterAt: "", hadImage: false });
  });

  test("back after signing in: the text is on the form again, said so, and the kept copy is gone", async () => {
    sessionStorage.setItem("nearcast.broadcast-draft.7", JSON.stringify({ text: TEXT, later: false, laterAt: "", hadImage: true }));
    const view = await renderBroadcastScreen();
    expect(view.textarea().value).toBe(TEXT);
    expect(view.getByText(`${DRAFT_BACK} ${IMAGE_AGAIN}`)).toBeTruthy();
    expect(sessionStorage.getItem("nearcast.broadcast-draft.7")).toBeNull();
  });

  test("the estimate answered 401 (before the confirm step): the same offer, nothing sent", async () => {
    api.routes[`POST ${ESTIMATE}`] = EXPIRED;
    const view = await writeAndSend(false);
    expect(view.getByRole("button", { name: "Sign in again" })).toBeTruthy();
    expect(api.paths()).not.toContain(`POST ${PUBLISH}`);
  });

  test("another business's kept draft is not put on this one", async () => {
    sessionStorage.setItem("nearcast.broadcast-draft.8", JSON.stringify({ text: "Gym deal", later: false, laterAt: "", hadImage: false }));
    const view = await renderBroadcastScreen();
    expect(view.textarea().value).toBe("");
    expect(view.queryByText(DRAFT_BACK)).toBeNull();
  });
});
