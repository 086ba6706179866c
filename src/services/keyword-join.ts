// Join by texting a word (issue 24, item 5): a person texts a business's keyword (the whole message, any case) to the
// shop's number and is subscribed to it on the channel they texted from, with source 'keyword'. The text itself is
// the consent: its words, time and MessageSid are stored with the consent event. The opt-in confirmation is the QR
// path's (the confirmations service: double opt-in, the hourly budget, one per 24 h), sent through the outbox, so a
// join that queues one answers with empty TwiML. Twilio's Advanced Opt-Out never answers a custom keyword (it is no
// OptOutType), so every other answer (a refusal, "already subscribed") is Nearcast's TwiML reply.
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../lib/logger.ts";
import type { BusinessWithType } from "../repos/businesses.ts";
import type { Repos } from "../repos/index.ts";
import { programmeWords, RATES_STOP_HELP } from "../schemas/consent.ts";
import type { ContactPreference } from "../schemas/customers.ts";
import { looksLikeKeyword, normalKeyword } from "../schemas/join-keyword.ts";
import { toE164 } from "../schemas/phone.ts";
import { textableNumberProblem } from "../schemas/subscribe-number.ts";
import { whatsappMarketingReachable } from "../schemas/whatsapp-marketing.ts";
import type { ConfirmationsService } from "./confirmations.ts";
import type { CurrentSettings } from "./settings.ts";
import { enroll } from "./subscriptions.ts";

export const joinClosedReply = (name: string) => `${name} is not taking new subscribers right now. No messages will be sent to you.`;
export const joinRefusedReply = (name: string) =>
  `Sorry, ${name} can only text mobile numbers from the countries it serves, so this number was not subscribed.`;
export const joinWhatsAppUsReply = (name: string) =>
  `WhatsApp can't deliver promotions to US numbers. Text the same word by SMS to join ${name}.`;
export const alreadyJoinedReply = (name: string) => `You are already subscribed to ${name} messages. Reply STOP to unsubscribe.`;
export const joinRequestedReply = (name: string) => `Thanks! ${name} will review your request to subscribe again.`;
/** A join whose confirmation is not sent again (one went out in the last 24 hours). */
export const joinedReply = (name: string, doubleOptIn: boolean) =>
  doubleOptIn
    ? `Reply YES to confirm your subscription to ${name} messages. Msg & data rates may apply. Reply STOP to cancel.`
    : `You are subscribed to ${name} messages. Msg & data rates may apply. Reply STOP to cancel, HELP for help.`;

/** What is stored with the subscription and its consent event: the message that gave the consent, word for word. */
export function keywordConsentText(m: { body: string; sid: string; to: string }, business: { name: string; messagesPerWeek: number }, channel: ContactPreference): string {
  const sid = m.sid ? ` (MessageSid ${m.sid})` : "";
  const to = m.to ? ` to ${m.to}` : "";
  return (
    `Texted ${JSON.stringify(m.body.slice(0, 40))}${to}${sid}, the join keyword of ${business.name.trim()} shown on its poster ` +
    `and subscribe page, agreeing to receive ${programmeWords(business.messagesPerWeek, channel)}. ${RATES_STOP_HELP}`
  );
}

export interface KeywordMessage {
  from: string;
  to: string;
  body: string;
  sid: string;
  at: Date;
  /** A reply an owner simulates in the sandbox: only their own businesses' keywords join (nobody else's list grows
   * by a consent the owner typed). */
  ownerId?: number;
}

/** What the webhook answers: the TwiML reply (null: none), and whether the sid had been handled before. */
export interface JoinResult {
  reply: string | null;
  replay: boolean;
}

export function createKeywordJoinService(deps: {
  repos: Repos;
  clock: Clock;
  config: Config;
  logger: Logger;
  settings: { current(): Pick<CurrentSettings, "allowedCountries"> };
  confirmations: Pick<ConfirmationsService, "queue">;
}) {
  const { repos, config, logger } = deps;

  /** The business whose keyword the whole message is, or undefined (then the message is not a join). */
  function businessOf(body: string): BusinessWithType | undefined {
    return looksLikeKeyword(body) ? repos.businesses.findByKeyword(normalKeyword(body)) : undefined;
  }

  /** Inside the transaction: subscribe, record consent and the inbound message, queue the confirmation. */
  function join(m: KeywordMessage, business: BusinessWithType, phone: string, channel: ContactPreference): string | null {
    const customerId = repos.customers.upsertId(phone, m.at);
    // The person wrote to us: on WhatsApp the 24-hour window opens (the confirmation may go free-form).
    repos.customerInbound.record(customerId, channel, m.at.getTime());
    const outcome = enroll(repos, {
      customerId,
      businessId: business.id,
      contactPreference: channel,
      source: "keyword",
      consentText: keywordConsentText(m, business, channel),
      meta: { ip: null, userAgent: null },
      at: m.at,
      byThePerson: true,
      status: business.doubleOptIn ? "unconfirmed" : "active",
    });
    if (outcome === "already") return alreadyJoinedReply(business.name);
    if (outcome === "requested") return joinRequestedReply(business.name);
    const queued = deps.confirmations.queue({ businessId: business.id, customerIds: [customerId], origin: "keyword", phones: new Map([[customerId, phone]]) });
    // The confirmation is the answer; without one (a confirmation went in the last 24 hours) a short reply says it.
    return queued ? null : joinedReply(business.name, business.doubleOptIn);
  }

  return {
    /**
     * A message that is not STOP, START or HELP: when its whole body is a business's keyword, the join (or the polite
     * refusal) and its answer; undefined when it is no keyword, for the caller's other handling. Durable, with the sid
     * remembered in the same transaction: a replayed join does nothing and gets no reply.
     */
    handle(m: KeywordMessage): JoinResult | undefined {
      const business = businessOf(m.body);
      if (!business || (m.ownerId !== undefined && business.ownerId !== m.ownerId)) return undefined;
      const whatsapp = /^whatsapp:/i.test(m.from.trim());
      const raw = m.from.trim().replace(/^whatsapp:/i, "").trim();
      const phone = toE164(raw, config.defaultCountry) ?? raw;
      const channel: ContactPreference = whatsapp ? "WhatsApp" : "SMS";
      return repos.durableTransaction(() => {
        if (m.sid && !repos.inboundMessages.remember(m.sid, m.at)) return { reply: null, replay: true };
        const reply = refusal(business, phone, channel) ?? join(m, business, phone, channel);
        logger.info(`keyword join of business #${business.id} (${channel}): ${reply === null ? "confirmation queued" : "answered"}`);
        return { reply, replay: false };
      });
    },
  };

  /** Why this number may not join this business now, as the reply; null when it may. Nothing is stored for it. */
  function refusal(business: BusinessWithType, phone: string, channel: ContactPreference): string | null {
    if (!business.isActive) return joinClosedReply(business.name);
    if (textableNumberProblem(phone, deps.settings.current().allowedCountries)) return joinRefusedReply(business.name);
    if (channel === "WhatsApp" && !whatsappMarketingReachable(phone)) return joinWhatsAppUsReply(business.name);
    return null;
  }
}

export type KeywordJoinService = ReturnType<typeof createKeywordJoinService>;
