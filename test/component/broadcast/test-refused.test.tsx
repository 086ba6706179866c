// Issue 23, item 4: a test the server refuses because Twilio could not fetch its image (the public URL is missing or
// private) says why and how to fix it; it never says "Test sent".
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/broadcast/test-refused.test.tsx
import { afterEach, beforeEach, expect, test } from "bun:test";
import { fireEvent } from "@testing-library/react";
import { imageLinkProblem } from "../../../src/schemas/twilio-links.ts";
import { TEST_SEND_LABEL } from "../../../web/features/broadcast/components/TestSendPanel.tsx";
import { currentUser } from "../../../web/shared/state/session.ts";
import { mockApi } from "../../helpers/mock-api.ts";
import { settle } from "../render-at.tsx";
import { renderBroadcastScreen, useBroadcastScreen } from "./broadcast-screen.tsx";

const SEND_TEST = "/api/broadcast/SendTest";
const OWNER = { id: 3, email: "ana@bakery.com", firstName: "Ana", lastName: "Baker", role: "owner" as const, createdAt: "2026-01-01T00:00:00.000Z" };
const api = mockApi();
const { routes: replies } = api;
useBroadcastScreen(api);

beforeEach(() => {
  currentUser.value = { ...OWNER, phone: "+14155550199", phoneVerified: true, status: "approved" };
});
afterEach(() => {
  currentUser.value = null;
});

test("400 public_url_private: the panel shows the reason naming publicUrl and the fix, as a failure", async () => {
  const why = imageLinkProblem("http://192.168.1.20:3000", "https://api.twilio.com")!;
  replies[`POST ${SEND_TEST}`] = { status: 400, body: { error: why, code: "public_url_private", fields: { Image: why, publicUrl: why } } };
  const view = await renderBroadcastScreen();
  view.type("Photo of the day");
  fireEvent.click(view.getByRole("button", { name: TEST_SEND_LABEL }));
  await settle();
  const outcome = view.getByTestId("test-outcome");
  expect(outcome.textContent).toBe(why);
  expect(outcome.textContent).toContain("Set a public address (publicUrl) in Settings");
  expect(outcome.className).toContain("is-failed");
  expect(view.container.textContent).not.toContain("Test sent");
});
