// The inbox API (issue 24 items 1 and 2): who sees which conversation, what a thread holds, the owner's answer.
import { describe, expect } from "bun:test";
import { CURSOR_INVALID } from "../../src/schemas/paging.ts";
import {
  REPLY_CUSTOMER_ID_INVALID,
  REPLY_OPTED_OUT,
  REPLY_TEXT_REQUIRED,
  REPLY_TEXT_TOO_LONG,
  REPLY_WHATSAPP_WINDOW_CLOSED,
} from "../../src/schemas/inbox.ts";
import { CONTENT_VARIABLES_WITHOUT_SID } from "../../src/services/broadcasts/template-choice.ts";
import { BUSINESS_ID_QUERY_INVALID, CUSTOMER_ID_QUERY_INVALID } from "../../src/services/inbox/index.ts";
import { type InboxWorld, inboxTables, inboxWorld, replyDeliveries, texted, unreadOf, WHATSAPP_FAN } from "../helpers/inbox-world.ts";
import { type ApiScenario, request, runScenarios } from "../helpers/scenario.ts";

type W = InboxWorld;
const setup = { world: () => inboxWorld(), unchanged: inboxTables, done: (w: W) => w.ctx.close() };
const phonesOf = (body: { items: { phone: string }[] }) => body.items.map((i) => i.phone);

describe("GET /api/inbox/ListConversations", () => {
  const list = (as: string | undefined, query = "") => request<W>(as, "GET", `/api/inbox/ListConversations${query}`);
  runScenarios<W>(
    [
      list("ownerA")("only the bakery's conversation, unread, with its preview and state", 200, {
        expect: (body) => {
          expect(phonesOf(body)).toEqual(["+14155550101"]);
          expect(body.items[0]).toMatchObject({ businessName: "A Bakery", channel: "SMS", unread: 1, lastMessagePreview: "Do you have rye bread today?", state: "subscribed", stateText: "Subscribed", whatsappWindowOpen: false });
          expect(body).toMatchObject({ total: 1, nextCursor: null });
        },
      }),
      list("ownerB")("only the gym's", 200, { expect: (body) => expect(phonesOf(body)).toEqual(["+14155550102"]) }),
      list("admin")("every business's, newest first", 200, { expect: (body) => expect(phonesOf(body)).toEqual(["+14155550102", "+14155550101"]) }),
      list("admin", "?limit=1")("a page at a time: the cursor leads to the next", 200, {
        expect: (body) => {
          expect(phonesOf(body)).toEqual(["+14155550102"]);
          expect(body.total).toBe(2);
          expect(body.nextCursor).toEqual(expect.any(String));
        },
      }),
      list(undefined)("anonymous -> 401", 401),
      list("ownerA", "?cursor=nonsense!")("a cursor it never gave -> 400", 400, { fields: { cursor: CURSOR_INVALID } }),
      list("ownerA", "?businessId=abc")("a businessId that is no id -> 400", 400, { fields: { businessId: BUSINESS_ID_QUERY_INVALID } }),
    ],
    setup,
  );
});

describe("GET /api/inbox/GetConversation", () => {
  const get = (as: string | undefined, query: (w: W) => string) => request<W>(as, "GET", (w) => `/api/inbox/GetConversation?${query(w)}`);
  const bakery = (w: W) => `customerId=${w.bakeryFan.id}&businessId=${w.bakery.id}`;
  runScenarios<W>(
    [
      get("ownerA", bakery)("the thread, and it is read now", 200, {
        expect: (body, w) => {
          expect(body.conversation).toMatchObject({ customerId: w.bakeryFan.id, businessId: w.bakery.id, unread: 0 });
          expect(body.items).toEqual([
            expect.objectContaining({ direction: "in", kind: "reply", body: "Do you have rye bread today?", channel: "SMS", status: null, mediaUrls: [] }),
          ]);
        },
        after: (w) => expect(unreadOf(w, w.bakeryFan.id)).toBe(0),
      }),
      get("ownerA", (w) => `customerId=${w.whatsappFan.id}&businessId=${w.bakery.id}`)("a follower who never wrote: what was sent to them (nothing yet)", 200, {
        expect: (body, w) => {
          expect(body.conversation).toMatchObject({ customerId: w.whatsappFan.id, channel: "WhatsApp", unread: 0, lastMessagePreview: "", state: "subscribed", whatsappWindowOpen: false });
          expect(body.items).toEqual([]);
        },
      }),
      get("ownerB", (w) => `customerId=${w.whatsappFan.id}&businessId=${w.bakery.id}`)("another owner's follower who never wrote -> 404", 404),
      get("admin", bakery)("the admin reads any", 200, { expect: (body) => expect(body.items).toHaveLength(1) }),
      get("ownerB", bakery)("another owner's -> 404, still unread", 404, { after: (w) => expect(unreadOf(w, w.bakeryFan.id)).toBe(1) }),
      get("ownerA", (w) => `customerId=${w.gymFan.id}&businessId=${w.gym.id}`)("the gym's, for the bakery's owner -> 404", 404),
      get(undefined, bakery)("anonymous -> 401", 401),
      get("ownerA", (w) => `businessId=${w.bakery.id}`)("no customerId -> 400", 400, { fields: { customerId: CUSTOMER_ID_QUERY_INVALID } }),
    ],
    setup,
  );
});

describe("GET /api/inbox/UnreadCount", () => {
  const count = (as: string | undefined) => request<W>(as, "GET", "/api/inbox/UnreadCount");
  runScenarios<W>(
    [
      count("ownerA")("the bakery's one", 200, { expectBody: { unread: 1 } }),
      count("ownerB")("the gym's one", 200, { expectBody: { unread: 1 } }),
      count("admin")("both", 200, { expectBody: { unread: 2 } }),
      count(undefined)("anonymous -> 401", 401),
    ],
    setup,
  );
});

describe("POST /api/inbox/Reply", () => {
  const reply = (as: string | undefined) => request<W>(as, "POST", "/api/inbox/Reply");
  const toBakeryFan = (text = "Yes, until 4pm!") => (w: W) => ({ customerId: w.bakeryFan.id, businessId: w.bakery.id, messageText: text });
  const queuedOne = (w: W) => expect(replyDeliveries(w)).toEqual([expect.objectContaining({ customerId: w.bakeryFan.id, channel: "SMS", status: "Queued", text: "Yes, until 4pm!", origin: "recent" })]);
  const scenarios: ApiScenario<W>[] = [
    reply("ownerA")("an SMS answer is queued in the outbox, as a reply to someone who just wrote", 200, {
      json: toBakeryFan(),
      expect: (body) => expect(body.item).toMatchObject({ direction: "out", kind: "ownerReply", status: "Queued", body: "Yes, until 4pm!", channel: "SMS" }),
      after: (w) => {
        queuedOne(w);
        expect(inboxTables(w).budget.map((b) => b.kind)).toEqual(["reply"]);
      },
    }),
    reply("admin")("the admin may answer for any business", 200, { json: toBakeryFan(), after: queuedOne }),
    reply("ownerB")("another owner's customer -> 404, nothing written", 404, { json: toBakeryFan() }),
    reply(undefined)("anonymous -> 401", 401, { json: toBakeryFan() }),
    reply("ownerA")("no text -> 400, nothing written", 400, { json: toBakeryFan("   "), fields: { messageText: REPLY_TEXT_REQUIRED } }),
    reply("ownerA")("too long -> 400", 400, { json: toBakeryFan("x".repeat(1601)), fields: { messageText: REPLY_TEXT_TOO_LONG } }),
    reply("ownerA")("a customerId that is no id -> 400", 400, {
      json: (w) => ({ customerId: "me", businessId: w.bakery.id, messageText: "Hi" }),
      fields: { customerId: REPLY_CUSTOMER_ID_INVALID },
    }),
    reply("ownerA")("someone who opted out -> 409, nothing written", 409, {
      before: (w) => texted(w.api, { from: "+14155550101", body: "STOP" }),
      json: toBakeryFan(),
      expectBody: { error: REPLY_OPTED_OUT },
    }),
    reply("ownerA")("WhatsApp, more than 24 hours after they wrote -> 400 saying to use a template", 400, {
      json: (w) => ({ customerId: w.whatsappFan.id, businessId: w.bakery.id, messageText: "Hello!" }),
      fields: { messageText: REPLY_WHATSAPP_WINDOW_CLOSED },
    }),
    reply("ownerA")("WhatsApp, template variables without a template -> 400 naming contentVariables", 400, {
      json: (w) => ({ customerId: w.whatsappFan.id, businessId: w.bakery.id, messageText: "Hi", contentVariables: "{\"1\":\"x\"}" }),
      fields: { contentVariables: CONTENT_VARIABLES_WITHOUT_SID },
    }),
    reply("ownerA")("WhatsApp within 24 hours of their message: free-form, queued", 200, {
      before: (w) => texted(w.api, { from: `whatsapp:${WHATSAPP_FAN}`, body: "Any croissants left?" }),
      json: (w) => ({ customerId: w.whatsappFan.id, businessId: w.bakery.id, messageText: "Two left!" }),
      after: (w) => expect(replyDeliveries(w)).toEqual([expect.objectContaining({ customerId: w.whatsappFan.id, channel: "WhatsApp", status: "Queued", text: "Two left!" })]),
    }),
  ];
  runScenarios<W>(scenarios, setup);
});
