// The inbox's world (issue 24): owner A's bakery and owner B's gym, each followed by one person who texted back
// (signed inbound webhooks through the app), a WhatsApp follower of the bakery, and the admin.
import { eq } from "drizzle-orm";
import { broadcasts, conversations, deliveries, inboxMessages, textBudget } from "../../src/db/schema.ts";
import type { Config } from "../../src/config.ts";
import { type ApiClient, apiClient } from "./api.ts";
import { type TestContext, testContext } from "./context.ts";
import { insertSubscriber } from "./customer-factories.ts";
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN } from "./fake-twilio.ts";
import { type FakeInbound, inboundRequest } from "./fake-twilio-inbound.ts";
import { ownersWorld, SIGNED_WEBHOOKS_ENV } from "./worlds.ts";

export const INBOUND = "/api/webhooks/twilio/inbound";
export const BAKERY_FAN = "+14155550101";
export const GYM_FAN = "+14155550102";
export const WHATSAPP_FAN = "+14165550103";

/** Posts a text as the fake Twilio would (signed for the public URL of `env`). */
export function texted(api: ApiClient, message: FakeInbound, account = { accountSid: FAKE_ACCOUNT_SID, authToken: FAKE_AUTH_TOKEN }, publicUrl = SIGNED_WEBHOOKS_ENV.NEARCAST_PUBLIC_URL) {
  const req = inboundRequest(account, publicUrl, INBOUND, message);
  return api.call("POST", INBOUND, { body: req.body, headers: req.headers, noXsrf: true });
}

export async function inboxWorld(env: Record<string, string> = {}, config: Partial<Config> = {}) {
  const ctx: TestContext = testContext({ ...SIGNED_WEBHOOKS_ENV, NEARCAST_QUIET_HOURS: "off", ...env }, config);
  const api = apiClient(ctx);
  const owners = ownersWorld(ctx, { cafe: false });
  const bakeryFan = insertSubscriber(ctx, owners.bakery.id, { phone: BAKERY_FAN }).customer;
  const gymFan = insertSubscriber(ctx, owners.gym.id, { phone: GYM_FAN }).customer;
  const whatsappFan = insertSubscriber(ctx, owners.bakery.id, { phone: WHATSAPP_FAN, contactPreference: "WhatsApp" }).customer;
  await texted(api, { from: BAKERY_FAN, body: "Do you have rye bread today?" });
  await texted(api, { from: GYM_FAN, body: "Is the pool open on Sunday?" });
  const tokens = { ownerA: owners.ownerA.token, ownerB: owners.ownerB.token, admin: owners.admin.token };
  return { ctx, api, tokens, ...owners, bakeryFan, gymFan, whatsappFan };
}

export type InboxWorld = Awaited<ReturnType<typeof inboxWorld>>;

/** What a refused Reply must leave as it was (and a read other than GetConversation). */
export function inboxTables(w: { ctx: TestContext }) {
  const db = w.ctx.db;
  return {
    messages: db.select().from(inboxMessages).all(),
    broadcasts: db.select().from(broadcasts).all(),
    deliveries: db.select().from(deliveries).all(),
    budget: db.select().from(textBudget).all(),
  };
}

export const unreadOf = (w: { ctx: TestContext }, customerId: number) =>
  w.ctx.db.select().from(conversations).where(eq(conversations.customerId, customerId)).get()?.unread;

export const replyDeliveries = (w: { ctx: TestContext }) =>
  w.ctx.db.select({ id: deliveries.id, customerId: deliveries.customerId, channel: deliveries.channel, status: deliveries.status, text: broadcasts.messageText, origin: broadcasts.origin })
    .from(deliveries).innerJoin(broadcasts, eq(broadcasts.id, deliveries.broadcastId)).where(eq(broadcasts.kind, "reply")).all();
