// The Inbox screen (issue 24): conversations unread first, one opened and answered, WhatsApp's 24 hours, opted out.
// Run: node_modules/.bin/bun test --preload ./test/helpers/happy-dom.ts test/component/inbox
import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { act, cleanup, fireEvent, within } from "@testing-library/react";
import { REPLY_OPTED_OUT, REPLY_WHATSAPP_WINDOW_CLOSED } from "../../../src/schemas/inbox.ts";
import { CHOOSE_TEMPLATE, WINDOW_CLOSED_NOTE } from "../../../web/features/inbox/components/ReplyBox.tsx";
import { NO_ANSWER_OPTED_OUT } from "../../../web/features/inbox/components/ConversationThread.tsx";
import { PENDING_REFRESH_MS } from "../../../web/features/inbox/useConversation.ts";
import { unreadConversations } from "../../../web/shared/state/inbox-unread.ts";
import { toasts } from "../../../web/shared/state/toasts.ts";
import { type ApiCall, mockApi, onePage } from "../../helpers/mock-api.ts";
import { captureConsoleErrors } from "../console-errors.ts";
import { settle } from "../render-at.tsx";
import { signIn } from "../sign-in.ts";
import { GET, item, LIST, openInbox, REPLY, row, TEMPLATES, thread, UNREAD } from "./inbox-screen.tsx";

const api = mockApi();
captureConsoleErrors();
const OPEN = "/inbox?customer=7&business=3";

beforeEach(() => {
  signIn("owner");
  api.routes[UNREAD] = { body: { unread: 0 } };
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  toasts.value = [];
  unreadConversations.value = 0;
  signIn(null);
});

const rowsOf = (view: { getByRole: (r: string, o: { name: string }) => HTMLElement }) => within(view.getByRole("list", { name: "Conversations" })).getAllByRole("link");

describe("the list", () => {
  test("rows as the server orders them (unread first): an unread one bold with its count, each with number, business, preview, channel and state", async () => {
    api.routes[LIST] = {
      body: onePage([
        row({ customerId: 8, phone: "+14155550188", unread: 2, lastMessagePreview: "Are you open Sunday?" }),
        row({ customerId: 9, phone: "+14155550199", channel: "WhatsApp", lastMessagePreview: "", state: "optedOutByReply", stateText: "Opted out by their reply" }),
      ]),
    };
    const view = await openInbox();
    const [first, second] = rowsOf(view);
    expect(first!.className).toContain("is-unread");
    expect(first!.textContent).toContain("+14155550188");
    expect(first!.textContent).toContain("Are you open Sunday?");
    expect(within(first!).getByLabelText("2 unread").textContent).toBe("2");
    expect(first!.getAttribute("href")).toBe("/inbox?customer=8&business=3");
    expect(second!.className).not.toContain("is-unread");
    expect(second!.textContent).toContain("Rosa's Corner Bakery");
    expect(second!.textContent).toContain("WhatsApp");
    expect(second!.textContent).toContain("Opted out by their reply");
    expect(second!.textContent).toContain("(picture)");
    expect(api.calls.find((c) => c.url.startsWith("/api/inbox/ListConversations"))!.url).toBe("/api/inbox/ListConversations?limit=30");
  });

  test("opening a conversation reads it: the thread shows what was sent and the reply, and its row loses its count", async () => {
    api.routes[LIST] = { body: onePage([row({ unread: 1 })]) };
    api.routes[GET] = { body: thread(row({ unread: 0 })) };
    const view = await openInbox(OPEN);
    expect(api.calls.some((c) => c.url === "/api/inbox/GetConversation?customerId=7&businessId=3")).toBe(true);
    const messages = within(view.getByRole("list", { name: "Messages" })).getAllByRole("listitem");
    expect(messages[0]!.textContent).toContain("Broadcast");
    expect(messages[0]!.textContent).toContain("Delivered");
    expect(messages[1]!.textContent).toContain("Their reply");
    expect(messages[1]!.textContent).toContain("Do you have rye today?");
    expect(rowsOf(view)[0]!.className).not.toContain("is-unread");
    expect(view.container.querySelector(".inbox-page")!.className).toContain("has-open");
  });
});

test("a new reply (the nav's count moves) reads the list again", async () => {
  let reads = 0;
  api.routes[LIST] = () => ({ body: onePage(++reads === 1 ? [row()] : [row({ customerId: 8, phone: "+14155550188", unread: 1 }), row()]) });
  const view = await openInbox();
  expect(rowsOf(view)).toHaveLength(1);
  await act(async () => void (unreadConversations.value = 1));
  await settle();
  expect(rowsOf(view).map((r) => r.querySelector(".inbox-row-phone")!.textContent)).toEqual(["+14155550188", "+14155550123"]);
});

test("a picture they sent is read with the owner's session (an <img> alone could not send it)", async () => {
  api.routes[LIST] = { body: onePage([row()]) };
  api.routes[GET] = { body: thread(row(), [item({ body: "", mediaUrls: ["/api/inbox/Media/5"] })]) };
  api.routes["GET /api/inbox/Media/5"] = { text: "a picture", headers: { "content-type": "image/jpeg" } };
  localStorage.setItem("token", "owner-token");
  const view = await openInbox(OPEN);
  await settle();
  const media = api.calls.find((c) => c.url === "/api/inbox/Media/5")!;
  expect(media.headers.authorization).toBe("Bearer owner-token");
  const img = view.getByRole("img", { name: "Picture the customer sent" }) as HTMLImageElement;
  expect(img.getAttribute("src")).toStartWith("blob:");
});

test("a conversation that could not be read says so, and Retry reads it again", async () => {
  let reads = 0;
  api.routes[LIST] = { body: onePage([row()]) };
  api.routes[GET] = () => (++reads === 1 ? { status: 500, body: { error: "Internal error", code: "internal", fields: {} } } : { body: thread(row()) });
  const view = await openInbox(OPEN);
  expect(view.getByRole("alert").textContent).toContain("Could not load this conversation.");
  fireEvent.click(view.getByRole("button", { name: "Retry" }));
  await settle();
  expect(within(view.getByRole("list", { name: "Messages" })).getAllByRole("listitem")).toHaveLength(2);
});

describe("answering", () => {
  test("a reply is sent (SMS) and appended to the thread; the box empties", async () => {
    api.routes[LIST] = { body: onePage([row()]) };
    api.routes[GET] = { body: thread(row()) };
    api.routes[REPLY] = (call: ApiCall) => ({
      body: { item: item({ id: "out-9", direction: "out", kind: "ownerReply", body: (call.body as { messageText: string }).messageText, status: "Queued" }), heldUntil: null },
    });
    const view = await openInbox(OPEN);
    const box = view.getByLabelText("Your reply") as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: "Yes, until 2pm!" } });
    fireEvent.click(view.getByRole("button", { name: "Send reply" }));
    await settle();
    expect(api.calls.find((c) => c.method === "POST")!.body).toEqual({ customerId: 7, businessId: 3, messageText: "Yes, until 2pm!" });
    const messages = within(view.getByRole("list", { name: "Messages" })).getAllByRole("listitem");
    expect(messages.at(-1)!.textContent).toContain("Your reply");
    expect(messages.at(-1)!.textContent).toContain("Yes, until 2pm!");
    expect(messages.at(-1)!.textContent).toContain("Queued");
    expect(box.value).toBe("");
    expect(toasts.value.map((t) => t.title)).toEqual(["Reply sent"]);
  });

  test("while an answer is Queued the thread is read again, so its status moves on; then no more", async () => {
    const answer = item({ id: "out-9", direction: "out", kind: "ownerReply", body: "On its way", status: "Queued" });
    let reads = 0;
    api.routes[LIST] = { body: onePage([row()]) };
    api.routes[GET] = () => ({ body: thread(row(), [item(), { ...answer, status: ++reads > 1 ? "Sent" : "Queued" }]) });
    jest.useFakeTimers();
    try {
      const view = await openInbox(OPEN);
      const last = () => within(view.getByRole("list", { name: "Messages" })).getAllByRole("listitem").at(-1)!.textContent;
      expect(last()).toContain("Queued");
      await act(async () => void jest.advanceTimersByTime(PENDING_REFRESH_MS));
      await settle();
      expect(last()).toContain("Sent");
      await act(async () => void jest.advanceTimersByTime(PENDING_REFRESH_MS * 3));
      await settle();
      expect(reads).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });

  test("the API's refusal is shown inline and as a toast, and the text is kept", async () => {
    api.routes[LIST] = { body: onePage([row()]) };
    api.routes[GET] = { body: thread(row()) };
    api.routes[REPLY] = { status: 409, body: { error: REPLY_OPTED_OUT, code: "conflict", fields: {} } };
    const view = await openInbox(OPEN);
    const box = view.getByLabelText("Your reply") as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: "See you soon" } });
    fireEvent.click(view.getByRole("button", { name: "Send reply" }));
    await settle();
    expect(within(view.getByRole("form", { name: "Reply" })).getByRole("alert").textContent).toBe(REPLY_OPTED_OUT);
    expect(box.value).toBe("See you soon");
    expect(toasts.value.map((t) => [t.type, t.message])).toEqual([["error", REPLY_OPTED_OUT]]);
    expect(within(view.getByRole("list", { name: "Messages" })).getAllByRole("listitem")).toHaveLength(2);
  });

  test("an empty reply is not sent", async () => {
    api.routes[LIST] = { body: onePage([row()]) };
    api.routes[GET] = { body: thread(row()) };
    const view = await openInbox(OPEN);
    fireEvent.click(view.getByRole("button", { name: "Send reply" }));
    await settle();
    expect(view.getByRole("alert").textContent).toBe("Type a reply first.");
    expect(api.calls.filter((c) => c.method === "POST")).toHaveLength(0);
  });

  test("WhatsApp inside 24 hours: a free-form box", async () => {
    const wa = row({ channel: "WhatsApp", whatsappWindowOpen: true, whatsappWindowEndsAt: "2026-11-27T15:04:00.000Z" });
    api.routes[LIST] = { body: onePage([wa]) };
    api.routes[GET] = { body: thread(wa) };
    const view = await openInbox(OPEN);
    expect(view.getByLabelText("Your reply")).toBeTruthy();
    expect(view.queryByText(WINDOW_CLOSED_NOTE)).toBeNull();
  });

  test("WhatsApp outside 24 hours: the box says so and offers the approved templates; the template is what is sent", async () => {
    const wa = row({ channel: "WhatsApp", whatsappWindowOpen: false });
    api.routes[LIST] = { body: onePage([wa]) };
    api.routes[GET] = { body: thread(wa) };
    api.routes[TEMPLATES] = {
      body: [
        { sid: "HX111", name: "back_in_stock", language: "en", status: "approved", body: "Hi {{1}}, it is back!", variables: [{ key: "1", example: "Ana" }], mediaHeader: false, mediaVariable: null },
        { sid: "HX222", name: "draft_one", language: "en", status: "pending", body: "Pending", variables: [], mediaHeader: false, mediaVariable: null },
        { sid: "HX333", name: "photo_offer", language: "en", status: "approved", body: "New!", variables: [], mediaHeader: true, mediaVariable: "1" },
      ],
    };
    api.routes[REPLY] = { body: { item: item({ id: "out-5", direction: "out", kind: "ownerReply", channel: "WhatsApp", body: "Hi Ana, it is back!", status: "Queued" }), heldUntil: null } };
    const view = await openInbox(OPEN);
    expect(view.getByText(WINDOW_CLOSED_NOTE)).toBeTruthy();
    expect(view.queryByLabelText("Your reply")).toBeNull();
    const select = view.getByLabelText("WhatsApp template") as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(["Choose an approved template", "back_in_stock · en"]);
    fireEvent.click(view.getByRole("button", { name: "Send template" }));
    await settle();
    expect(view.getByRole("alert").textContent).toBe(CHOOSE_TEMPLATE);
    fireEvent.change(select, { target: { value: "HX111" } });
    fireEvent.change(view.getByLabelText("{{1}}"), { target: { value: "Ana" } });
    expect(view.getByLabelText("Template preview").textContent).toBe("Hi Ana, it is back!");
    fireEvent.click(view.getByRole("button", { name: "Send template" }));
    await settle();
    expect(api.calls.find((c) => c.method === "POST")!.body).toEqual({ customerId: 7, businessId: 3, messageText: "", contentSid: "HX111", contentVariables: '{"1":"Ana"}' });
    expect(within(view.getByRole("list", { name: "Messages" })).getAllByRole("listitem").at(-1)!.textContent).toContain("Hi Ana, it is back!");
  });

  test("WhatsApp refused by the server as outside the window: its reason under the box", async () => {
    const wa = row({ channel: "WhatsApp", whatsappWindowOpen: true, whatsappWindowEndsAt: "2026-11-27T15:04:00.000Z" });
    api.routes[LIST] = { body: onePage([wa]) };
    api.routes[GET] = { body: thread(wa) };
    api.routes[REPLY] = { status: 400, body: { error: "Validation failed", code: "validation", fields: { messageText: REPLY_WHATSAPP_WINDOW_CLOSED } } };
    const view = await openInbox(OPEN);
    fireEvent.change(view.getByLabelText("Your reply"), { target: { value: "Late answer" } });
    fireEvent.click(view.getByRole("button", { name: "Send reply" }));
    await settle();
    expect(within(view.getByRole("form", { name: "Reply" })).getByRole("alert").textContent).toBe(REPLY_WHATSAPP_WINDOW_CLOSED);
    expect((view.getByLabelText("Your reply") as HTMLTextAreaElement).value).toBe("Late answer");
  });

  test("opted out by their reply: no reply box, the reason instead", async () => {
    const out = row({ state: "optedOutByReply", stateText: "Opted out by their reply" });
    api.routes[LIST] = { body: onePage([out]) };
    api.routes[GET] = { body: thread(out, [item({ body: "stop texting me" })]) };
    const view = await openInbox(OPEN);
    const thread_ = view.getByRole("region", { name: /Conversation with/ });
    expect(within(thread_).queryByRole("form")).toBeNull();
    expect(within(thread_).queryByRole("textbox")).toBeNull();
    expect(within(thread_).getByRole("status").textContent).toBe(`Opted out by their reply. ${NO_ANSWER_OPTED_OUT}`);
  });
});
