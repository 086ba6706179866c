import type { Clock } from "../clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { Messenger, StatusUpdate } from "./messenger.ts";
import { SandboxMessenger, type Timers } from "./sandbox.ts";
import { twilioLinkBase } from "../schemas/twilio-links.ts";
import { createTwilioMessenger, DEFAULT_TWILIO_API_BASE, type TwilioConfig } from "./twilio.ts";

export type { Channel, DeliveryStatus, Messenger, OutboundMessage, ProviderMessage, SendOutcome, StatusUpdate } from "./messenger.ts";
export { MessengerUnavailableError } from "./messenger.ts";

/** What the messenger is made from: the Twilio account (null = the sandbox), its API base and the saved public URL
 * (null when none is set: Twilio then gets no status callbacks and no image links). */
export interface MessengerConfig {
  twilio: TwilioConfig | null;
  twilioApiBase: string;
  publicUrl: string | null;
}

export interface MessengerDeps {
  clock?: Clock;
  logger?: Logger;
  /** Sandbox only: its simulated Delivered/Failed (Twilio's arrive through the status webhook instead); the context
   * hands them to the status-callbacks service. */
  onStatus?: (update: StatusUpdate) => void;
  /** Sandbox only. */
  timers?: Timers;
  sandboxDelayMs?: number;
  /** Per Twilio request; default 10 s. */
  twilioTimeoutMs?: number;
}

/** Twilio when credentials are configured, otherwise the sandbox. */
export function createMessenger(config: MessengerConfig, deps: MessengerDeps = {}): Messenger {
  if (config.twilio) {
    return createTwilioMessenger({
      twilio: config.twilio,
      apiBase: config.twilioApiBase,
      // A private public URL is no address for Twilio (schemas/twilio-links.ts): no callback, no image link on it.
      publicUrl: twilioLinkBase(config.publicUrl, config.twilioApiBase),
      ...(deps.twilioTimeoutMs !== undefined ? { timeoutMs: deps.twilioTimeoutMs } : {}),
      ...(deps.clock ? { clock: deps.clock } : {}),
    });
  }
  return new SandboxMessenger({
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.timers ? { timers: deps.timers } : {}),
    ...(deps.onStatus ? { onStatus: deps.onStatus } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.sandboxDelayMs !== undefined ? { deliveryDelayMs: deps.sandboxDelayMs } : {}),
  });
}

/** The start-up lines about messaging: which messenger, and a warning when Twilio cannot reach this server. */
export function describeMessenger(config: MessengerConfig): string[] {
  const t = config.twilio;
  if (!t) return ["Messages: sandbox (no Twilio credentials; messages are recorded, not sent)"];
  const sms = t.messagingServiceSid
    ? `SMS via messaging service ${t.messagingServiceSid}`
    : t.from
      ? `SMS from ${t.from}`
      : "no SMS sender";
  const wa = t.whatsappFrom ? `WhatsApp from ${t.whatsappFrom.replace(/^whatsapp:/i, "")}` : "no WhatsApp sender";
  const base = config.twilioApiBase.replace(/\/+$/, "");
  const api = base === DEFAULT_TWILIO_API_BASE ? "" : `; API ${base}`;
  const lines = [`Messages: Twilio (${sms}, ${wa}${api})`];
  if (config.publicUrl === null) {
    lines.push(
      "No public URL is set: Twilio gets no status callbacks (outcomes are looked up instead) and broadcasts with an image are refused; set the public address in Settings or NEARCAST_PUBLIC_URL",
    );
    return lines;
  }
  if (twilioLinkBase(config.publicUrl, config.twilioApiBase) === null) {
    lines.push(
      `The public URL is ${config.publicUrl}, a private address: Twilio gets no status callbacks (outcomes are looked up instead) and broadcasts with an image are refused; set the public address in Settings or NEARCAST_PUBLIC_URL`,
    );
  }
  return lines;
}
