import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../lib/logger.ts";
import type { Messenger, StatusUpdate } from "./messenger.ts";
import { SandboxMessenger, type Timers } from "./sandbox.ts";
import { createTwilioMessenger, DEFAULT_TWILIO_API_BASE } from "./twilio.ts";

export type { Channel, DeliveryStatus, Messenger, OutboundMessage, ProviderMessage, SendOutcome, StatusUpdate } from "./messenger.ts";
export { MessengerUnavailableError } from "./messenger.ts";

export type MessengerConfig = Pick<Config, "twilio" | "twilioApiBase" | "publicUrl">;

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
      publicUrl: config.publicUrl,
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

/** A host Twilio's servers cannot reach: loopback, unspecified, *.localhost, private IPv4 ranges. */
export function isUnreachableFromInternet(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "localhost" || h.endsWith(".localhost") || h === "::1" || h === "::" || h === "0.0.0.0") return true;
  const m = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(h);
  if (!m) return false;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254);
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
  let host = "";
  try {
    host = new URL(config.publicUrl).hostname;
  } catch {
    host = "";
  }
  if (host && isUnreachableFromInternet(host)) {
    lines.push(
      `NEARCAST_PUBLIC_URL is ${config.publicUrl}: Twilio cannot fetch images or reach the webhooks; set it to the public address`,
    );
  }
  return lines;
}
