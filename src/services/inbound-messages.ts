import { createHash, timingSafeEqual } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ForbiddenError } from "../errors.ts";
import type { Logger } from "../lib/logger.ts";
import { randomToken } from "../lib/tokens.ts";
import type { CustomerRow } from "../repos/customers.ts";
import type { Repos } from "../repos/index.ts";
import type { UserRow } from "../repos/users.ts";
import { toE164 } from "../schemas/phone.ts";
import { toGsm7 } from "../schemas/gsm7-text.ts";
import { asksToStop, replyWordsSource } from "../lib/stop-words.ts";
import { helpReply, keywordSpeaker, notSubscribedReply, startReply, stopReply, twilioAnswered } from "./keyword-replies.ts";

export { toGsm7 };
import { createOptOutsService, type OptOutsService } from "./opt-outs.ts";
import type { ConfirmationsService } from "./confirmations.ts";
import type { MySubscriptionsService } from "./my-subscriptions.ts";
import type { SettingsService } from "./settings.ts";
import { createKeywordJoinService } from "./keyword-join.ts";

// Text messages people send to our number (POST /api/webhooks/twilio/inbound). Only the keywords mean anything:
// STOP and friends opt the number out of every business, START and friends opt it back in, HELP says who is
// writing (with a link to the person's subscriptions page, my-subscriptions.ts). A reply asking to stop in plain
// words ("stop texting me", src/lib/stop-words.ts) is a STOP. Anything else gets no reply (this is not a chat line).
//
// Replays: each keyword message's MessageSid is remembered (inbound_messages) in the same transaction as its effect,
// and a sid seen before changes nothing and gets no reply. Otherwise a captured, validly signed START could be posted
// again later to undo the person's STOP.
//
// The sandbox door: without Twilio there is no signature to check, so the webhook routes ask for either this
// install's secret key (?key=, sandboxKey() below) or a signed-in owner or admin (the "Try a reply" panel). An owner
// may speak only for numbers that follow their own businesses and no one else's: a STOP applies to every business of
// the number, and HELP names them all.

/** The internal settings key (not a setting: settings.view() lists only SETTING_KEYS) of the sandbox webhook key. */
export const SANDBOX_KEY_SETTING = "secret.sandboxInboundKey";
export const SANDBOX_DOOR_CLOSED =
  "Without Twilio, this webhook needs its key (?key=, shown to the administrator) or a signed-in owner. Nothing was changed.";
export const NOT_YOUR_NUMBER = "You can try replies only from numbers subscribed to your own businesses (and no other owner's).";

export const OPT_OUT_KEYWORDS = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT"] as const;
export const OPT_IN_KEYWORDS = ["START", "YES", "UNSTOP"] as const;
export const HELP_KEYWORDS = ["HELP", "INFO"] as const;

export type InboundIntent = "stop" | "start" | "help" | "other";

export { HELP_MAX, helpReply, type HelpContact, NOT_SUBSCRIBED_REPLY, notSubscribedReply, STOP_REPLY, startReply, stopReply } from "./keyword-replies.ts";

const byKeyword = new Map<string, InboundIntent>([
  ...OPT_OUT_KEYWORDS.map((k) => [k, "stop"] as const),
  ...OPT_IN_KEYWORDS.map((k) => [k, "start"] as const),
  ...HELP_KEYWORDS.map((k) => [k, "help"] as const),
]);

const byOptOutType: Record<string, InboundIntent> = { STOP: "stop", START: "start", HELP: "help" };

/** What an inbound message asks for. Twilio's OptOutType (set when its own keyword handling matched, in any of the
 * languages configured there) wins; otherwise the whole body, trimmed, in any case, must be a keyword. */
export function inboundIntent(body: unknown, optOutType: unknown): InboundIntent {
  if (typeof optOutType === "string") {
    const byType = byOptOutType[optOutType.trim().toUpperCase()];
    if (byType) return byType;
  }
  if (typeof body !== "string") return "other";
  return byKeyword.get(body.trim().toUpperCase()) ?? "other";
}

/** TwiML with one <Message>, or an empty <Response/> (no reply). */
export function twiml(reply: string | null): string {
  const head = '<?xml version="1.0" encoding="UTF-8"?>';
  if (reply === null) return `${head}<Response/>`;
  return `${head}<Response><Message>${escapeXml(reply)}</Message></Response>`;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch]!);
}

/** +14155550111 -> +1415***0111: enough to follow a log, not a phone book. */
export function maskPhone(phone: string): string {
  return phone.length > 8 ? `${phone.slice(0, 5)}***${phone.slice(-4)}` : "***";
}

export interface InboundResult {
  intent: InboundIntent;
  /** The reply text; null = no reply. */
  reply: string | null;
  /** Whether the sender is a known customer. */
  known: boolean;
  /** The MessageSid was handled before: nothing was done. */
  replay?: boolean;
}

export interface InboundOptions {
  /** Sandbox only: the signed-in owner or admin simulating this reply (undefined: Twilio, or the sandbox key). */
  actor?: UserRow;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

export function createInboundMessagesService(deps: {
  repos: Repos;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** The brand the replies name. */
  settings: Pick<SettingsService, "current">;
  optOuts?: OptOutsService;
  /** START renews subscriptions: each renewed business sends its opt-in confirmation through the outbox. */
  confirmations?: Pick<ConfirmationsService, "queue">;
  /** HELP carries a new link to the person's subscriptions page (when a public URL is saved). */
  mySubscriptions?: Pick<MySubscriptionsService, "linkFor">;
}) {
  const { repos, clock, config, logger } = deps;
  const brand = () => deps.settings.current().brandName;
  const optOuts = deps.optOuts ?? createOptOutsService({ repos });
  const keywordJoin = deps.confirmations && createKeywordJoinService({ ...deps, confirmations: deps.confirmations });

  /** The customer with this From (E.164, maybe `whatsapp:`-prefixed), or undefined. */
  function sender(from: string): { customer: CustomerRow | undefined; phone: string; whatsapp: boolean } {
    const whatsapp = /^whatsapp:/i.test(from.trim());
    const raw = from.trim().replace(/^whatsapp:/i, "").trim();
    const exact = repos.customers.findByPhone(raw);
    if (exact) return { customer: exact, phone: raw, whatsapp };
    const phone = toE164(raw, config.defaultCountry);
    return { customer: phone ? repos.customers.findByPhone(phone) : undefined, phone: phone ?? raw, whatsapp };
  }

  /** Double opt-in: the person's YES (or START) makes their unconfirmed subscriptions active. How many. */
  function confirmUnconfirmed(customerId: number, source: string, at: Date, note: string | undefined): number {
    const waiting = repos.subscriptions.listByCustomer(customerId).filter((s) => s.status === "unconfirmed");
    for (const s of waiting) {
      repos.subscriptions.update(s.id, { status: "active" });
      repos.consentEvents.insert({ customerId, businessId: s.businessId, kind: "subscribed", source, consentText: note ?? null, ip: null, userAgent: null, at });
    }
    return waiting.length;
  }

  function activeBusinessNames(customerId: number): string[] {
    return repos.subscriptions
      .listByCustomer(customerId)
      .filter((s) => s.status === "active")
      .map((s) => s.businessName);
  }

  /** An owner may simulate replies only from a number that follows their businesses and nobody else's. */
  function checkOwnerMay(actor: UserRow, customer: CustomerRow | undefined): void {
    if (actor.role === "admin") return;
    const owners = new Set(customer ? repos.subscriptions.listByCustomer(customer.id).map((s) => s.ownerId) : []);
    if (owners.size !== 1 || !owners.has(actor.id)) throw new ForbiddenError(NOT_YOUR_NUMBER);
  }

  /** A known customer wrote to us on this channel now (customer_inbound): on WhatsApp that opens the 24-hour window
   * for free-form messages, and lifts a WhatsApp marketing stop (Meta 131050: they are talking to businesses again). */
  function recordInbound(from: string, at: Date): void {
    const { customer, whatsapp } = sender(from);
    if (!customer) return;
    repos.customerInbound.record(customer.id, whatsapp ? "WhatsApp" : "SMS", at.getTime());
    if (whatsapp) repos.customerInbound.clearMarketingStopped(customer.id);
  }

  /** The sandbox key as stored, or undefined before the first sandboxKey(). */
  const storedKey = () => repos.settings.get(SANDBOX_KEY_SETTING);

  return {
    /** One inbound message's form fields (From, Body, OptOutType...) -> what to do and what to answer. */
    handle(params: Record<string, unknown>, options: InboundOptions = {}): InboundResult {
      const keyword = inboundIntent(params.Body, params.OptOutType);
      // A reply that asks to stop in plain words ("stop texting me") opts out like STOP (src/lib/stop-words.ts).
      const byWords = keyword === "other" && asksToStop(params.Body);
      const intent: InboundIntent = byWords ? "stop" : keyword;
      const from = typeof params.From === "string" ? params.From : "";
      if (options.actor) checkOwnerMay(options.actor, sender(from).customer);
      const sid = typeof params.MessageSid === "string" ? params.MessageSid.trim() : "";
      const at = clock.now();
      if (intent === "other") {
        // A business's join keyword (keyword-join.ts): the join, or its polite refusal, is the whole answer.
        const ownerId = options.actor?.role === "owner" ? options.actor.id : undefined;
        const joined = typeof params.Body === "string" ? keywordJoin?.handle({ from, to: String(params.To ?? ""), body: params.Body, sid, at, ownerId }) : undefined;
        if (joined) return { intent, reply: joined.reply, known: true, ...(joined.replay ? { replay: true } : {}) };
        // Any message opens WhatsApp's 24-hour window; a replayed sid (remembered like a keyword's) opens nothing.
        repos.transaction(() => {
          if (sender(from).customer && (!sid || repos.inboundMessages.remember(sid, at))) recordInbound(from, at);
        });
        return { intent, reply: null, known: false };
      }
      // Remembering the sid and acting on the message commit together (the opt-out's own transaction nests as a
      // savepoint): a replay finds the sid, and a failed effect leaves it unrecorded for Twilio's retry. Durable
      // (fsynced) before the reply tells the person it is done: a STOP must survive a power cut.
      return repos.durableTransaction(() => {
        if (sid && !repos.inboundMessages.remember(sid, at)) {
          logger.info(`${intent.toUpperCase()} with a MessageSid already handled: ignored (a replay or a retry)`);
          return { intent, reply: null, known: false, replay: true };
        }
        recordInbound(from, at);
        // Twilio's Advanced Opt-Out answered already: the keyword is recorded, and the person gets no second text.
        const quiet = twilioAnswered(params.OptOutType, deps.settings.current().keywordReplies);
        // A simulated reply (an owner's or the admin's "Try a reply") gets no personal link: the page would show the
        // person's businesses of other owners, and let the owner unsubscribe them.
        const result = act(intent, from, params.Body, at, quiet, { byWords, link: !quiet && !options.actor });
        return quiet ? { ...result, reply: null } : result;
      });
    },

    /** The sandbox webhook key: made once (256 random bits), then the same for the life of the install. */
    sandboxKey(): string {
      return repos.transaction(() => {
        const saved = storedKey();
        if (saved) return saved;
        const key = randomToken();
        repos.settings.save(SANDBOX_KEY_SETTING, key, clock.now());
        return key;
      });
    },

    /** Whether `candidate` is the sandbox key, compared in constant time (digests: equal lengths whatever is sent). */
    sandboxKeyMatches(candidate: string | undefined): boolean {
      const key = storedKey();
      if (!key || !candidate) return false;
      return timingSafeEqual(digest(key), digest(candidate));
    },
  };

  function act(intent: Exclude<InboundIntent, "other">, from: string, body: unknown, at: Date, quiet: boolean, how: { byWords: boolean; link: boolean }): InboundResult {
    const { byWords } = how;
    const { customer, phone, whatsapp } = sender(from);
    const channel = whatsapp ? "whatsapp" : "sms";
    // Plain words are the evidence of the opt-out: kept whole (one SMS worth), a keyword's first 40 characters.
    const note = typeof body === "string" ? `Replied ${JSON.stringify(body.trim().slice(0, byWords ? 320 : 40))}` : undefined;
    const who = maskPhone(phone);

    if (intent === "stop") {
      if (customer) {
        const source = byWords ? replyWordsSource(channel) : `${channel}-stop`;
        const r = optOuts.optOutCustomer(customer.id, { source, at, ...(note ? { note } : {}) });
        logger.info(`${who} opted out (${channel}): ${r.businessIds.length} subscription(s) ended, ${r.skippedDeliveries} pending message(s) skipped`);
      } else {
        logger.info(`opt-out from ${who}, not a customer: nothing to change`);
      }
      // Confirmed either way: nothing will be sent to this number.
      return { intent, reply: stopReply(keywordSpeaker(repos, deps.settings.current()).name), known: customer !== undefined };
    }
    if (!customer) {
      logger.info(`${intent.toUpperCase()} from ${who}, not a customer`);
      return { intent, reply: intent === "help" ? helpReply(undefined, brand()) : notSubscribedReply(brand()), known: false };
    }
    if (intent === "start") {
      const confirmed = confirmUnconfirmed(customer.id, `${channel}-yes`, at, note);
      const r = optOuts.optInCustomer(customer.id, { source: `${channel}-start`, at, ...(note ? { note } : {}) });
      logger.info(`${who} opted in (${channel}): ${r.businessIds.length} subscription(s) resumed, ${confirmed} confirmed`);
      // A renewed subscription gets its business's confirmation (frequency, rates, STOP/HELP) through the outbox, one
      // per business; then that is the answer, and the keyword gets no second text. Nothing renewed (a YES to a
      // double opt-in, or START when subscribed already): the short reply below says where they stand. When Twilio
      // answered (quiet), its START text is the confirmation: nothing is queued.
      const queued = quiet ? [] : r.businessIds.filter((businessId) => deps.confirmations?.queue({ businessId, customerIds: [customer.id], origin: "keyword" }));
      if (queued.length > 0) return { intent, reply: null, known: true };
      return { intent, reply: startReply(activeBusinessNames(customer.id), brand()), known: true };
    }
    // Twilio's own HELP text (quiet) cannot carry a personal link: none is made then.
    const link = how.link ? (deps.mySubscriptions?.linkFor(customer.id) ?? null) : null;
    return { intent, reply: helpReply(repos.businesses.helpContactFor(customer.id), brand(), link), known: true };
  }
}

export type InboundMessagesService = ReturnType<typeof createInboundMessagesService>;
