// The Twilio adapter, on the real `twilio` package's REST layer: its Messages resource builds the request (form
// fields, URL) and parses the answer (MessageInstance, RestException, pages), exactly as in twilio-node.
//
// What we leave out is twilio's transport. `twilio()` / `new Twilio()` load axios, form-data and node:http/https
// (~25 MB of RSS under Bun) for a RequestClient we do not use, and every call goes through BaseTwilio.request and
// then through our client anyway. So the adapter builds the Messages resource on twilio's own Domain and Version
// classes with a small client in BaseTwilio's place (the same headers and credentials), over fetch: requests go
// straight to TWILIO_API_BASE, every request has a timeout that aborts it (and frees its socket), and a 429 becomes
// an error that keeps the Retry-After header (twilio's RestException drops response headers). The modules are
// imported on first use, so a server without Twilio credentials never loads them.
import type { Clock } from "../clock.ts";
import { systemClock } from "../clock.ts";
import type { TwilioConfig } from "../config.ts";
import type TwilioRequestClient from "twilio/lib/base/RequestClient";
import type TwilioResponse from "twilio/lib/http/response";
import type V2010 from "twilio/lib/rest/api/V2010";
import type {
  MessageInstance,
  MessageListInstance,
  MessageListInstanceCreateOptions,
} from "twilio/lib/rest/api/v2010/account/message";
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

export const DEFAULT_TWILIO_TIMEOUT_MS = 10_000;
export const DEFAULT_TWILIO_API_BASE = "https://api.twilio.com";
/** Our clock and Twilio's may differ; findRecent() looks this much before `since`. */
const FIND_RECENT_SLACK_MS = 60_000;
const MESSAGE_SID = /^(SM|MM)[0-9a-fA-F]{32}$/;

export interface TwilioMessengerOptions {
  twilio: TwilioConfig;
  /** TWILIO_API_BASE; https://api.twilio.com unless tests point it at a fake. */
  apiBase: string;
  /** NEARCAST_PUBLIC_URL: media and status-callback paths are resolved against it. */
  publicUrl: string;
  /** Per request; default 10 s. */
  timeoutMs?: number;
  clock?: Clock;
}

/** Twilio answered 429. Thrown by our HTTP client so the Retry-After header survives. */
class RateLimited extends Error {
  constructor(
    readonly retryAfterMs: number | null,
    readonly code: number | null,
    message: string,
  ) {
    super(message);
  }
}

/** twilio-node threw before sending anything (e.g. a missing parameter). */
class NotSent extends Error {}

/** Retry-After is delta-seconds or an HTTP date. */
export function parseRetryAfter(value: unknown, now: Date): number | null {
  if (Array.isArray(value)) value = value[0];
  if (typeof value !== "string" && typeof value !== "number") return null;
  const text = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

function bodyFields(body: unknown): { code: number | null; message: string | null } {
  let parsed = body;
  if (typeof body === "string") {
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = null;
    }
  }
  if (!parsed || typeof parsed !== "object") return { code: null, message: null };
  const o = parsed as Record<string, unknown>;
  const message = [o.message, o.detail, o.title].find((m) => typeof m === "string" && m) as string | undefined;
  return { code: errorCodeOf(o.code), message: message ?? null };
}

/** Form or query fields as twilio's RequestClient encodes them (qs, arrayFormat "repeat"): a list repeats its key. */
function formOf(params: Record<string, unknown>): URLSearchParams {
  const out = new URLSearchParams();
  for (const key in params) {
    const value = params[key];
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v === undefined || v === null) continue;
      out.append(key, v instanceof Date ? v.toISOString() : String(v));
    }
  }
  return out;
}

/**
 * The client twilio's Domain calls, in BaseTwilio's place: the same headers and Basic credentials as
 * BaseTwilio.request, then the transport, on fetch instead of twilio's axios RequestClient (which costs about 5x
 * the CPU per request under Bun, bench/broadcast.ts). Without BaseTwilio's edge/region host rewriting:
 * TWILIO_API_BASE is the whole origin. Adds the timeout that aborts the request (and frees its socket) and the 429
 * that keeps its Retry-After.
 */
function makeClient(cfg: TwilioConfig, userAgent: string, timeoutMs: number, clock: Clock) {
  const authorization = `Basic ${Buffer.from(`${cfg.accountSid}:${cfg.authToken}`).toString("base64")}`;
  return {
    accountSid: cfg.accountSid,
    async request<TData>(opts: TwilioRequestClient.RequestOptions<TData>): Promise<TwilioResponse<TData>> {
      if (!opts.method) throw new Error("http method is required");
      if (!opts.uri) throw new Error("uri is required");
      const headers: Record<string, string> = { "User-Agent": userAgent, "Accept-Charset": "utf-8", Authorization: authorization };
      for (const k in opts.headers) {
        const v = opts.headers[k];
        if (v !== undefined) headers[k] = String(v);
      }
      if ((opts.method === "post" || opts.method === "put") && !headers["Content-Type"]) {
        headers["Content-Type"] = "application/x-www-form-urlencoded";
      }
      if (opts.method !== "delete" && !headers.Accept) headers.Accept = "application/json";
      let url = opts.uri;
      if (opts.params) {
        const query = formOf(opts.params as Record<string, unknown>).toString();
        if (query) url += (url.includes("?") ? "&" : "?") + query;
      }
      let body: string | URLSearchParams | undefined;
      if (opts.data) {
        body = headers["Content-Type"] === "application/json" ? JSON.stringify(opts.data) : formOf(opts.data as Record<string, unknown>);
      }
      let res: Response;
      let text: string;
      // A timer cleared on the answer (AbortSignal.timeout would keep one per request alive for the whole timeout).
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(new DOMException("The operation timed out.", "TimeoutError")), timeoutMs);
      try {
        res = await fetch(url, {
          method: opts.method.toUpperCase(),
          headers,
          body,
          redirect: opts.allowRedirects ? "follow" : "manual",
          signal: abort.signal,
        });
        text = await res.text();
      } catch (err) {
        // The timeout fired (no answer, or no complete answer): say so the way classify() recognises.
        if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) {
          throw Object.assign(new Error(`timeout of ${timeoutMs}ms exceeded`), { code: "ETIMEDOUT" });
        }
        throw err;
      } finally {
        clearTimeout(timer);
      }
      if (res.status === 429) {
        const { code, message } = bodyFields(text);
        throw new RateLimited(parseRetryAfter(res.headers.get("retry-after"), clock.now()), code, message ?? "Too Many Requests");
      }
      // twilio's Version/RestException parse a string body themselves.
      return { statusCode: res.status, body: text as TData, headers: res.headers.toJSON() } as TwilioResponse<TData>;
    },
  };
}

/**
 * A CommonJS module's `exports.default` (twilio's classes): the runtime hands it over as `default`, the
 * executable's bundler as `default.default`.
 */
function cjsDefault<T>(mod: { default: T }): T {
  const d = mod.default as T & { __esModule?: boolean; default?: T };
  return d.__esModule && d.default ? d.default : d;
}

/** twilio's Messages resource for the account, on twilio's Domain and Version, with our client in BaseTwilio's place. */
async function loadMessagesApi(cfg: TwilioConfig, apiBase: string, timeoutMs: number, clock: Clock): Promise<MessageListInstance> {
  // The checks twilio's client constructor makes.
  if (!cfg.accountSid.startsWith("AC")) throw new Error("accountSid must start with AC");
  if (!cfg.authToken) throw new Error("authToken is required");
  const [domainModule, versionModule, { MessageListInstance: messagesOf }, pkg] = await Promise.all([
    import("twilio/lib/base/Domain"),
    import("twilio/lib/base/Version"),
    import("twilio/lib/rest/api/v2010/account/message"),
    import("twilio/package.json"),
  ]);
  const Domain = cjsDefault(domainModule);
  const Version = cjsDefault(versionModule);
  const client = makeClient(cfg, `twilio-node/${pkg.version} (${process.platform} ${process.arch}) node/${process.version}`, timeoutMs, clock);
  // twilio's types ask for the whole Twilio client and the V2010 version; these use only request() and the plain
  // Version's methods.
  const domain = new Domain(client as unknown as ConstructorParameters<typeof Domain>[0], apiBase.replace(/\/+$/, ""));
  return messagesOf(new Version(domain, "2010-04-01") as unknown as V2010, cfg.accountSid);
}

/** Removes the auth token (and the Basic credential made from it) from any text that may leave this module. */
function makeRedactor(cfg: TwilioConfig): (text: string) => string {
  const secrets = [cfg.authToken, Buffer.from(`${cfg.accountSid}:${cfg.authToken}`).toString("base64")].filter(
    (s) => s.length >= 4,
  );
  return (text) => secrets.reduce((t, s) => t.split(s).join("[redacted]"), text);
}

const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ConnectionRefused",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "FailedToOpenSocket",
]);

function errText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/** Network-level and HTTP-level failures -> an outcome. `err` comes from the twilio client or our transport. */
function classify(err: unknown, timeoutMs: number): SendOutcome {
  if (err instanceof RateLimited) {
    return { kind: "rate_limited", retryAfterMs: err.retryAfterMs, code: err.code, message: err.message };
  }
  if (err instanceof NotSent) return { kind: "failed", code: null, message: err.message };
  const e = (err ?? {}) as { isAxiosError?: boolean; code?: unknown; status?: unknown; detail?: unknown };
  if (e.isAxiosError || typeof e.status !== "number") {
    // No HTTP answer. Refused / not found: the request never left. Anything else (timeout, reset): it may have.
    const code = typeof e.code === "string" ? e.code : "";
    if (UNREACHABLE.has(code)) return { kind: "unavailable", message: `Twilio unreachable: ${errText(err)}` };
    if (code === "ECONNABORTED" || code === "ETIMEDOUT" || code === "ERR_CANCELED" || /timeout|abort/i.test(errText(err))) {
      return { kind: "uncertain", message: `Twilio did not answer within ${timeoutMs} ms (${errText(err)})` };
    }
    return { kind: "uncertain", message: `Twilio request interrupted: ${errText(err)}` };
  }
  // RestException or TwilioServiceException: Twilio answered with an error.
  const status = e.status;
  const code = errorCodeOf(e.code);
  const message = typeof e.detail === "string" && e.detail ? e.detail : errText(err);
  if (code === 21610) return { kind: "opted_out", code: 21610, message };
  if (status === 429) return { kind: "rate_limited", retryAfterMs: null, code, message };
  if (status === 401) return { kind: "failed", code, message: `Twilio refused the credentials (check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN): ${message}` };
  if (status >= 500) return { kind: "uncertain", message: `Twilio error ${status}${code ? ` (${code})` : ""}: ${message}` };
  return { kind: "failed", code, message };
}

function toProviderMessage(m: MessageInstance): ProviderMessage {
  return {
    providerId: m.sid,
    status: normalizeTwilioStatus(m.status),
    providerStatus: String(m.status),
    errorCode: errorCodeOf(m.errorCode),
    errorMessage: m.errorMessage || null,
  };
}

const whatsapp = (number: string) => `whatsapp:${number.replace(/^whatsapp:/i, "").trim()}`;

export function createTwilioMessenger(options: TwilioMessengerOptions): Messenger {
  const cfg = options.twilio;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TWILIO_TIMEOUT_MS;
  const clock = options.clock ?? systemClock;
  const redact = makeRedactor(cfg);
  let messagesPromise: Promise<MessageListInstance> | null = null;
  let loaded: MessageListInstance | null = null;

  function messagesApi(): Promise<MessageListInstance> {
    messagesPromise ??= loadMessagesApi(cfg, options.apiBase, timeoutMs, clock).then((api) => (loaded = api));
    return messagesPromise;
  }

  /** Runs one twilio call. It cannot hang: the only I/O is the client's requests, each aborted at its timeout. */
  async function guarded<T>(call: (messages: MessageListInstance) => Promise<T>): Promise<T> {
    let c: MessageListInstance;
    try {
      c = loaded ?? (await messagesApi());
    } catch (err) {
      throw new NotSent(`Twilio client not available: ${errText(err)}`); // e.g. an account sid not starting with AC
    }
    let pending: Promise<T>;
    try {
      pending = call(c); // twilio-node validates synchronously before any I/O
    } catch (err) {
      throw new NotSent(errText(err));
    }
    return pending;
  }

  function createParams(msg: OutboundMessage): MessageListInstanceCreateOptions | string {
    const params: MessageListInstanceCreateOptions = {
      to: msg.channel === "whatsapp" ? whatsapp(msg.to) : msg.to,
      statusCallback: publicLink(options.publicUrl, msg.statusCallback ?? STATUS_WEBHOOK_PATH),
    };
    if (msg.channel === "whatsapp") {
      if (!cfg.whatsappFrom) return "WhatsApp is not configured (set TWILIO_WHATSAPP_FROM)";
      params.from = whatsapp(cfg.whatsappFrom);
    } else if (cfg.messagingServiceSid) {
      params.messagingServiceSid = cfg.messagingServiceSid;
    } else if (cfg.from) {
      params.from = cfg.from;
    } else {
      return "SMS is not configured (set TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID)";
    }
    if (msg.body) params.body = msg.body;
    if (msg.mediaUrl) params.mediaUrl = [publicLink(options.publicUrl, msg.mediaUrl)];
    return params;
  }

  return {
    name: "twilio",

    async send(msg) {
      const refused = preflight(msg);
      if (refused) return refused;
      const params = createParams(msg);
      if (typeof params === "string") return { kind: "failed", code: null, message: params };
      let outcome: SendOutcome;
      try {
        const m = await guarded((messages) => messages.create(params));
        const status = normalizeTwilioStatus(m.status);
        if (!m.sid) outcome = { kind: "uncertain", message: "Twilio answered without a message sid" };
        else if (status === "Failed") {
          outcome = { kind: "failed", code: errorCodeOf(m.errorCode), message: m.errorMessage || `Twilio status ${m.status}` };
        } else outcome = { kind: "sent", providerId: m.sid, status: status ?? "Sent", providerStatus: String(m.status) };
      } catch (err) {
        outcome = classify(err, timeoutMs);
      }
      if ("message" in outcome) outcome.message = redact(outcome.message);
      return outcome;
    },

    async lookup(providerId) {
      // twilio-node puts the sid into the path unescaped: only well-formed sids go out (a sandbox id is unknown).
      if (!MESSAGE_SID.test(providerId)) return null;
      try {
        return toProviderMessage(await guarded((messages) => messages(providerId).fetch()));
      } catch (err) {
        if ((err as { status?: unknown })?.status === 404) return null;
        throw new MessengerUnavailableError(redact(`Twilio lookup failed: ${describeFailure(err, timeoutMs)}`));
      }
    },

    async findRecent(msg, since) {
      const to = msg.channel === "whatsapp" ? whatsapp(msg.to) : msg.to;
      const from = msg.channel === "whatsapp" ? (cfg.whatsappFrom ? whatsapp(cfg.whatsappFrom) : null) : cfg.messagingServiceSid ? null : cfg.from;
      // Not filtered by DateSent: a message still queued at Twilio has no date_sent and would be missed.
      let page: MessageInstance[];
      try {
        page = (await guarded((messages) => messages.page({ to, ...(from ? { from } : {}), pageSize: 50 }))).instances;
      } catch (err) {
        throw new MessengerUnavailableError(redact(`Twilio lookup failed: ${describeFailure(err, timeoutMs)}`));
      }
      const after = since.getTime() - FIND_RECENT_SLACK_MS;
      const match = page
        .filter(
          (m) =>
            m.to === to &&
            String(m.direction).startsWith("outbound") &&
            (m.body ?? "") === msg.body &&
            (!cfg.messagingServiceSid || msg.channel === "whatsapp" || m.messagingServiceSid === cfg.messagingServiceSid) &&
            m.dateCreated instanceof Date &&
            m.dateCreated.getTime() >= after,
        )
        .sort((a, b) => b.dateCreated.getTime() - a.dateCreated.getTime())[0];
      return match ? toProviderMessage(match) : null;
    },

    close() {},
  };
}

function describeFailure(err: unknown, timeoutMs: number): string {
  const outcome = classify(err, timeoutMs);
  return "message" in outcome ? outcome.message : errText(err);
}
