// The customer's messages (web/features/customers) with a conversation per business (issue 24): the inbox's thread.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/inbox
import { afterEach, beforeEach, expect, test } from "bun:test";
import { cleanup, fireEvent, within } from "@testing-library/react";
import { CONVERSATION_NOT_FOUND } from "../../../src/schemas/inbox.ts";
import { CustomerMessagesModal } from "../../../web/features/customers/components/CustomerMessagesModal.tsx";
import { NO_REPLIES_YET } from "../../../web/features/inbox/components/ConversationThread.tsx";
import { mockApi, onePage } from "../../helpers/mock-api.ts";
import { captureConsoleErrors } from "../console-errors.ts";
import { render } from "@testing-library/react";
import { settle } from "../render-at.tsx";
import { signIn } from "../sign-in.ts";
import { GET, row, thread, UNREAD } from "./inbox-screen.tsx";

const api = mockApi();
captureConsoleErrors();

beforeEach(() => {
  signIn("owner");
  api.routes["GET /api/customer/ListCustomerMessages"] = { body: onePage([]) };
  api.routes[UNREAD] = { body: { unread: 0 } };
  api.routes[GET] = (call) =>
    call.url.endsWith("businessId=3")
      ? { body: thread(row()) }
      : { status: 404, body: { error: CONVERSATION_NOT_FOUND, code: "not_found", fields: {} } };
});
afterEach(() => {
  cleanup();
  signIn(null);
  document.body.style.overflow = "";
});

test("one conversation per business: the first open with what was sent and the reply and a reply box; another read only once opened", async () => {
  const businesses = [
    { id: 3, name: "Rosa's Corner Bakery" },
    { id: 4, name: "Rosa's Flowers" },
  ];
  const view = render(<CustomerMessagesModal customerId={7} customerName="+14155550123" businesses={businesses} onClose={() => {}} />);
  await settle();
  const section = view.getByRole("region", { name: "Conversations" });
  const bakery = within(section).getByRole("region", { name: "Conversation with +14155550123, Rosa's Corner Bakery" });
  const messages = within(bakery).getAllByRole("listitem");
  expect(messages.map((m) => m.querySelector(".inbox-msg-kind")?.textContent)).toEqual(["Broadcast", "Their reply"]);
  expect(within(bakery).getByRole("form", { name: "Reply" })).toBeTruthy();
  expect(api.calls.filter((c) => c.url.startsWith("/api/inbox/GetConversation")).map((c) => c.url)).toEqual(["/api/inbox/GetConversation?customerId=7&businessId=3"]);

  const flowers = section.querySelectorAll("details")[1]!;
  flowers.open = true;
  fireEvent(flowers, new Event("toggle"));
  await settle();
  expect(api.calls.filter((c) => c.url.startsWith("/api/inbox/GetConversation")).map((c) => c.url).at(-1)).toBe("/api/inbox/GetConversation?customerId=7&businessId=4");
  expect(within(flowers).getByText(NO_REPLIES_YET)).toBeTruthy();
});

test("without businesses (as before): no conversations part", async () => {
  const view = render(<CustomerMessagesModal customerId={7} customerName="+14155550123" onClose={() => {}} />);
  await settle();
  expect(view.queryByRole("region", { name: "Conversations" })).toBeNull();
  expect(api.calls.some((c) => c.url.startsWith("/api/inbox/"))).toBe(false);
});
