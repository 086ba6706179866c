// The Twilio adapter: the three REST calls Nearcast makes (create a message, fetch one by sid, list recent messages
// to a number), as plain `fetch` requests in Twilio's wire format (twilio-rest.ts).
//
// Why not the `twilio` package's client: importing it at all (even to hand it a custom httpClient) loads its axios
// RequestClient and the whole REST tree, which costs a server tens of MB of memory for three calls; reaching past
// it into twilio/lib's Domain and Version classes avoided that but tied us to its private internals. Three requests
// are short to write and easy to read, and they let us do what the dispatcher needs and twilio-node does not: a
// timeout that aborts every request (and frees its socket), a 429 that keeps its Retry-After, and refused
// connections told apart from lost answers. The `twilio` package stays for webhook signatures (signature.ts).
import type { Clock } from "../clock.ts";
import { systemClock } from "../clock.ts";
import {
  type Messenger,
  MessengerUnavailableError,
  type OutboundMessage,
  type ProviderMessage,
  preflight,
  publicLink,
  type SendOutcome,
  STATUS_WEBHOOK_PATH,
} from "./messenger.ts";
import { errorCodeOf, normalizeTwilioStatus } from "./status.ts";
import { whatsappErrorReason } from "./whatsapp-errors.ts";
import { type AccountProblem, accountProblemOf, noSenderProblem, problemText } from "./account-errors.ts";
import { restClient, TimedOut, type TwilioConfig, TwilioError, type TwilioMessage } from "./twilio-rest.ts";

export { parseRetryAfter, type TwilioConfig } from "./twilio-rest.ts";

export const DEFAULT_TWILIO_TIMEOUT_MS = 10_000;
export const DEFAULT_TWILIO_API_BASE = "https://api.twilio.com";
/** Our clock and Twilio's may differ; findRecent() looks this much before `since`. */
const FIND_RECENT_SLACK_MS = 60_000;
const MESSAGE_SID = /^(SM|MM)[0-9a-fA-F]{32}$/;

export interface TwilioMessengerOptions {
  twilio: TwilioConfig;
  /** TWILIO_API_BASE; https://api.twilio.com unless tests point it at a fake. */
  apiBase: string;
  /** The saved public URL: media and status-callback paths are resolved against it. null: none is set, so no
   * StatusCallback is sent and an image given as a path is refused (Twilio could not fetch it). */
  publicUrl: string | null;
  /** Per request; default 10 s. */
  timeoutMs?: number;
  clock?: Clock;
}

/** Refused before anything was sent (a configuration Twilio would refuse anyway). */
class NotSent extends Error {}

/** Removes the auth token (and the Basic credential made from it) from any text that may leave this module. */
function makeRedactor(cfg: TwilioConfig): (text: string) => string {
  const secrets = [cfg.authToken, Buffer.from(`${cfg.accountSid}:${cfg.authToken}`).toString("base64")].filter(
    (s) => s.length >= 4,
  );
  return (text) => secrets.reduce((t, s) => t.split(s).join("[redacted]"), text);
}

/** Connection errors after which the request certainly never reached Twilio. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ConnectionRefused", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "FailedToOpenSocket"]);

function errText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/** A failed request -> an outcome: what Twilio said, or what the network did. */
function classify(err: unknown): SendOutcome {
  if (err instanceof NotSent) return { kind: "failed", code: null, message: err.message };
  if (err instanceof TimedOut) return { kind: "uncertain", message: err.message };
  if (!(err instanceof TwilioError)) {
    // No HTTP answer. Refused / not found: the request never left. Anything else (a reset): it may have.
    const code = (err as { code?: unknown })?.code;
    if (typeof code === "string" && UNREACHABLE.has(code)) return { kind: "unavailable", message: `Twilio unreachable: ${errText(err)}` };
    return { kind: "uncertain", message: `Twilio request interrupted: ${errText(err)}` };
  }
  const { status, code, message } = err;
  if (code === 21610) return { kind: "opted_out", code: 21610, message };
  if (status === 429) return { kind: "rate_limited", retryAfterMs: err.retryAfterMs, code, message };
  const account = accountProblemOf(status, code);
  if (account) return accountOutcome(account, message);
  if (status >= 500) return { kind: "uncertain", message: `Twilio error ${status}${code ? ` (${code})` : ""}: ${message}` };
  return { kind: "failed", code, message: whatsappErrorReason(code) ?? message };
}

/** The outcome of an account problem: Twilio's own words after ours, for the log and the pause. */
function accountOutcome(p: AccountProblem, twilioMessage?: string | null): SendOutcome {
  return { kind: "account_problem", code: p.code, message: problemText(p, twilioMessage), fix: p.fix };
}

function describeFailure(err: unknown): string {
  const outcome = classify(err);
  return "message" in outcome ? outcome.message : errText(err);
}

function toProviderMessage(m: TwilioMessage): ProviderMessage {
  return {
    providerId: String(m.sid),
    status: normalizeTwilioStatus(m.status),
    providerStatus: String(m.status),
    errorCode: errorCodeOf(m.error_code),
    errorMessage: m.error_message || null,
  };
}

const whatsapp = (number: string) => `whatsapp:${number.replace(/^whatsapp:/i, "").trim()}`;

/** The form of a message create (To, From or MessagingServiceSid, Body and MediaUrl or, for a WhatsApp template,
 * ContentSid and ContentVariables, StatusCallback, ValidityPeriod); a text when the channel has no sender configured. */
function createForm(cfg: TwilioConfig, publicUrl: string | null, msg: OutboundMessage): Record<string, string | string[] | undefined> | string {
  let sender: { From: string } | { MessagingServiceSid: string };
  if (msg.channel === "whatsapp") {
    if (!cfg.whatsappFrom) return "WhatsApp is not configured (set TWILIO_WHATSAPP_FROM)";
    sender = { From: whatsapp(cfg.whatsappFrom) };
  } else if (cfg.messagingServiceSid) sender = { MessagingServiceSid: cfg.messagingServiceSid };
  else if (cfg.from) sender = { From: cfg.from };
  else return "SMS is not configured (set TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID)";
  // Without a saved public URL there is no address Twilio could fetch an image from or call back on.
  const link = (pathOrUrl: string) => (publicUrl === null && !/^https?:\/\//i.test(pathOrUrl) ? null : publicLink(publicUrl ?? "", pathOrUrl));
  const media = msg.contentSid === undefined && msg.mediaUrl ? link(msg.mediaUrl) : undefined;
  if (media === null) return "The image was not sent: this server has no public URL, so Twilio cannot fetch it (set one in Settings)";
  const content = msg.contentSid !== undefined
    ? { ContentSid: msg.contentSid, ContentVariables: msg.contentVariables ?? "{}" }
    : { Body: msg.body || undefined, MediaUrl: media ? [media] : undefined };
  return {
    To: msg.channel === "whatsapp" ? whatsapp(msg.to) : msg.to,
    ...sender,
    ...content,
    StatusCallback: link(msg.statusCallback ?? STATUS_WEBHOOK_PATH) ?? undefined,
    ValidityPeriod: msg.validityPeriod !== undefined ? String(msg.validityPeriod) : undefined,
  };
}

/** What an accepted create means for the delivery. */
function sendOutcomeOf(m: TwilioMessage): SendOutcome {
  const status = normalizeTwilioStatus(m.status);
  if (!m.sid) return { kind: "uncertain", message: "Twilio answered without a message sid" };
  if (status === "Failed") {
    const code = errorCodeOf(m.error_code);
    const account = accountProblemOf(null, code);
    if (account) return accountOutcome(account, m.error_message);
    return { kind: "failed", code, message: whatsappErrorReason(code) ?? (m.error_message || `Twilio status ${m.status}`) };
  }
  return { kind: "sent", providerId: m.sid, status: status ?? "Sent", providerStatus: String(m.status) };
}

/** The newest outbound message in `page` to `to` with this body, created at or after `after`. `body` null: a
 * template send, whose body Twilio renders itself, so any body matches (by number and time only; the caller's
 * resolveFound refuses a message that is already another delivery's). */
function newestMatch(page: TwilioMessage[], to: string, body: string | null, after: number, messagingServiceSid: string | null): TwilioMessage | undefined {
  const created = (m: TwilioMessage) => (m.date_created ? Date.parse(m.date_created) : Number.NaN);
  return page
    .filter(
      (m) =>
        m.to === to &&
        String(m.direction).startsWith("outbound") &&
        (body === null || (m.body ?? "") === body) &&
        (!messagingServiceSid || m.messaging_service_sid === messagingServiceSid) &&
        created(m) >= after,
    )
    .sort((a, b) => created(b) - created(a))[0];
}

export function createTwilioMessenger(options: TwilioMessengerOptions): Messenger {
  const cfg = options.twilio;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TWILIO_TIMEOUT_MS;
  const rest = restClient(cfg, options.apiBase, timeoutMs, options.clock ?? systemClock);
  const redact = makeRedactor(cfg);
  // Twilio's account sids start with AC; anything else cannot authenticate, so nothing is sent.
  const badAccount = cfg.accountSid.startsWith("AC") ? null : "Twilio client not available: accountSid must start with AC";

  function request(method: "GET" | "POST", path: string, fields?: Record<string, string | string[] | undefined>) {
    if (badAccount) return Promise.reject(new NotSent(badAccount));
    return rest.request(method, path, fields);
  }

  return {
    name: "twilio",

    async send(msg) {
      const refused = preflight(msg);
      if (refused) return refused;
      // No sender for the channel is the account's problem, not the recipient's: the channel waits for one.
      if (!(msg.channel === "whatsapp" ? cfg.whatsappFrom : cfg.messagingServiceSid || cfg.from)) return accountOutcome(noSenderProblem(msg.channel));
      const form = createForm(cfg, options.publicUrl, msg);
      if (typeof form === "string") return { kind: "failed", code: null, message: form };
      let outcome: SendOutcome;
      try {
        outcome = sendOutcomeOf((await request("POST", "/Messages.json", form)) as TwilioMessage);
        if (outcome.kind === "sent" && form.StatusCallback === undefined) outcome.unwatched = true;
      } catch (err) {
        outcome = classify(err);
      }
      if ("message" in outcome) outcome.message = redact(outcome.message);
      return outcome;
    },

    async lookup(providerId) {
      // Only well-formed sids go out (a sandbox id is unknown here).
      if (!MESSAGE_SID.test(providerId)) return null;
      try {
        return toProviderMessage((await request("GET", `/Messages/${providerId}.json`)) as TwilioMessage);
      } catch (err) {
        if (err instanceof TwilioError && err.status === 404) return null;
        throw new MessengerUnavailableError(redact(`Twilio lookup failed: ${describeFailure(err)}`));
      }
    },

    async findRecent(msg, since) {
      const sms = msg.channel !== "whatsapp";
      const to = sms ? msg.to : whatsapp(msg.to);
      const from = sms ? (cfg.messagingServiceSid ? undefined : (cfg.from ?? undefined)) : cfg.whatsappFrom ? whatsapp(cfg.whatsappFrom) : undefined;
      // Not filtered by DateSent: a message still queued at Twilio has no date_sent and would be missed.
      let page: TwilioMessage[];
      try {
        const answer = await request("GET", "/Messages.json", { To: to, From: from, PageSize: "50" });
        page = Array.isArray(answer.messages) ? (answer.messages as TwilioMessage[]) : [];
      } catch (err) {
        throw new MessengerUnavailableError(redact(`Twilio lookup failed: ${describeFailure(err)}`));
      }
      const match = newestMatch(page, to, msg.contentSid !== undefined ? null : msg.body, since.getTime() - FIND_RECENT_SLACK_MS, sms ? cfg.messagingServiceSid : null);
      return match ? toProviderMessage(match) : null;
    },

    close() {},
  };
}
