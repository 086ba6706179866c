// Storing what people text us (issue 24 item 1). Every inbound SMS or WhatsApp message is kept: from a number that
// follows (or followed) a business, in the conversation with the one they most recently heard from; from anyone
// else, for no owner (only a keyword acts on it). A MessageSid stored before stores nothing (a replay, or Twilio
// retrying). The media are fetched after the message is stored (the webhook answers Twilio without waiting).
import type { Clock } from "../../clock.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../lib/logger.ts";
import type { TwilioConfig } from "../../messaging/twilio.ts";
import type { Repos } from "../../repos/index.ts";
import { toE164 } from "../../schemas/phone.ts";
import { maskPhone } from "../inbound-messages.ts";
import type { InboxMediaStore } from "./media.ts";
import { mediaUrls } from "./media.ts";
import { previewOf } from "./view.ts";

/** The longest body kept (Twilio's own limit for one message). */
const MAX_BODY = 1600;

export interface ReceiveDeps {
  repos: Repos;
  clock: Clock;
  config: Pick<Config, "defaultCountry">;
  logger: Logger;
  media: InboxMediaStore;
  /** The account's credentials (null: the sandbox, whose messages carry no media to fetch), and the API's base URL. */
  messaging: () => { twilio: TwilioConfig | null; twilioApiBase: string };
}

export interface Received {
  /** The stored message's id; null when nothing was stored (a replay, or no sender). */
  messageId: number | null;
  businessId: number | null;
  /** The media fetch under way (tests and the benchmark wait for it). */
  media: Promise<number>;
}

export function createInboxReceiver({ repos, clock, config, logger, media, messaging }: ReceiveDeps) {
  /** Fetches the message's media one by one and records those kept; how many. Failures are logged, never thrown. */
  async function fetchMedia(messageId: number, urls: string[], twilio: TwilioConfig): Promise<number> {
    let kept = 0;
    for (const url of urls) {
      try {
        const got = await media.fetchOne(url, twilio);
        if (!got) {
          logger.warn(`inbox: a media of message ${messageId} is not a picture within 5 MB: not kept`);
          continue;
        }
        repos.transaction(() => repos.inbox.addMedia(messageId, got.fileName, got.contentType, got.size));
        kept++;
      } catch (e) {
        logger.warn(`inbox: a media of message ${messageId} could not be fetched (${(e as Error).message})`);
      }
    }
    return kept;
  }

  return {
    /** Stores one inbound message's form fields (From, Body, MessageSid, NumMedia, MediaUrlN). */
    receive(params: Record<string, unknown>): Received {
      const from = typeof params.From === "string" ? params.From.trim() : "";
      const raw = from.replace(/^whatsapp:/i, "").trim();
      if (!raw) return { messageId: null, businessId: null, media: Promise.resolve(0) };
      const channel = /^whatsapp:/i.test(from) ? "WhatsApp" : "SMS";
      // Twilio sends E.164; anything else is read as the inbound service reads it (a local number, the default country).
      const phone = /^\+[1-9]\d{6,15}$/.test(raw) ? raw : (toE164(raw, config.defaultCountry) ?? raw);
      const body = typeof params.Body === "string" ? params.Body.slice(0, MAX_BODY) : "";
      const sid = typeof params.MessageSid === "string" && params.MessageSid.trim() ? params.MessageSid.trim() : null;
      const { twilio, twilioApiBase } = messaging();
      const urls = twilio ? mediaUrls(params, twilioApiBase) : [];
      const at = clock.now().getTime();
      const stored = repos.transaction(() => {
        const customerId = repos.inbox.customerIdByPhone(phone) ?? null;
        const businessId = customerId === null ? null : (repos.inbox.businessFor(customerId) ?? null);
        const id = repos.inbox.store(
          { messageSid: sid, customerId, businessId, fromPhone: phone, channel, body, mediaCount: urls.length, at },
          previewOf(body.trim()),
        );
        return { id, businessId };
      });
      if (stored.id === null) {
        logger.info(`inbox: message ${sid} from ${maskPhone(phone)} stored before: ignored`);
        return { messageId: null, businessId: stored.businessId, media: Promise.resolve(0) };
      }
      const fetching = twilio && urls.length > 0 ? fetchMedia(stored.id, urls, twilio) : Promise.resolve(0);
      return { messageId: stored.id, businessId: stored.businessId, media: fetching };
    },
  };
}

export type InboxReceiver = ReturnType<typeof createInboxReceiver>;
