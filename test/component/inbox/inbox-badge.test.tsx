// The nav's Inbox link and its unread badge (issue 24): read when signed in, again on focus; never for a visitor.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/inbox
import { afterEach, beforeEach, expect, test } from "bun:test";
import { act, cleanup } from "@testing-library/react";
import { NavBar } from "../../../web/shared/components/NavBar.tsx";
import { unreadConversations } from "../../../web/shared/state/inbox-unread.ts";
import { mockApi } from "../../helpers/mock-api.ts";
import { renderAt, settle } from "../render-at.tsx";
import { signIn } from "../sign-in.ts";
import { UNREAD } from "./inbox-screen.tsx";

const api = mockApi();
let unread = 3;

beforeEach(() => {
  unread = 3;
  api.routes[UNREAD] = () => ({ body: { unread } });
});
afterEach(() => {
  cleanup();
  signIn(null);
  unreadConversations.value = 0;
});

const unreadCalls = () => api.paths().filter((p) => p === UNREAD).length;

test("signed in: the Inbox link carries the count of conversations with unread replies, read again when the window gets focus", async () => {
  signIn("owner");
  const view = renderAt("/", { "/": <NavBar /> });
  await settle();
  const link = view.getByRole("link", { name: "Inbox, 3 unread" });
  expect(link.getAttribute("href")).toBe("/inbox");
  expect(view.getByTestId("inbox-badge").textContent).toBe("3");
  unread = 0;
  await act(async () => void window.dispatchEvent(new Event("focus")));
  await settle();
  expect(unreadCalls()).toBe(2);
  expect(view.queryByTestId("inbox-badge")).toBeNull();
  expect(view.getByRole("link", { name: "Inbox" })).toBeTruthy();
});

test("the admin has the link and the badge too", async () => {
  signIn("admin");
  const view = renderAt("/", { "/": <NavBar /> });
  await settle();
  expect(view.getByTestId("inbox-badge").textContent).toBe("3");
});

test("a visitor: no Inbox link and the count is never asked for", async () => {
  signIn(null);
  const view = renderAt("/", { "/": <NavBar /> });
  await settle();
  await act(async () => void window.dispatchEvent(new Event("focus")));
  expect(view.queryByRole("link", { name: /Inbox/ })).toBeNull();
  expect(unreadCalls()).toBe(0);
});
