// Twilio's REST wire format for the account's 2010-04-01 API: form-encoded POST bodies and query strings (a list
// repeats its key), Basic auth with the account sid and auth token, the headers twilio-node sends, JSON answers and
// Twilio's JSON errors ({code, message, more_info, status}). Every request is aborted at its timeout.
import twilioPackage from "twilio/package.json" with { type: "json" };
import type { Clock } from "../clock.ts";
import { errorCodeOf } from "./status.ts";

const USER_AGENT = `twilio-node/${twilioPackage.version} (${process.platform} ${process.arch}) node/${process.version}`;

/** The Twilio account and senders in use (from the settings: src/services/settings.ts). */
export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  from: string | null;
  messagingServiceSid: string | null;
  whatsappFrom: string | null;
}

/** A message resource as Twilio's 2010-04-01 API answers it (the fields we read). */
export interface TwilioMessage {
  sid?: string;
  status?: string;
  error_code?: number | string | null;
  error_message?: string | null;
  to?: string;
  body?: string | null;
  direction?: string;
  messaging_service_sid?: string | null;
  date_created?: string | null;
}

/** Twilio answered with an error status. */
export class TwilioError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

/** No HTTP answer within the timeout: the request was aborted. */
export class TimedOut extends Error {}

/** Retry-After is delta-seconds or an HTTP date. */
export function parseRetryAfter(value: unknown, now: Date): number | null {
  if (Array.isArray(value)) value = value[0];
  if (typeof value !== "string" && typeof value !== "number") return null;
  const text = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Form or query fields; a list repeats its key (MediaUrl=a&MediaUrl=b), as Twilio expects. */
function formOf(fields: Record<string, string | string[] | undefined>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) out.append(key, v);
  }
  return out;
}

export interface RestClient {
  /** The JSON answer of a 2xx; throws TwilioError for any other status, TimedOut, or the network's error. */
  request(method: "GET" | "POST", path: string, fields?: Record<string, string | string[] | undefined>): Promise<Record<string, unknown>>;
}

/** Twilio's Basic credentials and the headers twilio-node sends. */
function headersOf(cfg: TwilioConfig): Record<string, string> {
  return {
    Authorization: `Basic ${Buffer.from(`${cfg.accountSid}:${cfg.authToken}`).toString("base64")}`,
    "User-Agent": USER_AGENT,
    Accept: "application/json",
    "Accept-Charset": "utf-8",
  };
}

/** One request to any Twilio host (the 2010-04-01 API, content.twilio.com), aborted at `timeoutMs`: the JSON answer
 * of a 2xx; throws TwilioError for any other status, TimedOut, or the network's error. */
export async function twilioRequest(
  cfg: TwilioConfig,
  url: string,
  init: { method: "GET" | "POST"; form?: URLSearchParams },
  timeoutMs: number,
  clock: Clock,
): Promise<Record<string, unknown>> {
  const headers = headersOf(cfg);
  const req: RequestInit = init.method === "POST"
    ? { method: "POST", headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" }, body: init.form ?? new URLSearchParams() }
    : { method: "GET", headers };
  // A timer cleared on the answer (AbortSignal.timeout would keep one alive per request for the whole timeout).
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { ...req, redirect: "manual", signal: abort.signal });
    text = await res.text();
  } catch (err) {
    throw abort.signal.aborted ? new TimedOut(`Twilio did not answer within ${timeoutMs} ms`) : err;
  } finally {
    clearTimeout(timer);
  }
  const json = parseJson(text);
  if (res.ok) return json;
  const message = typeof json.message === "string" && json.message ? json.message : `HTTP ${res.status}`;
  const retryAfter = res.status === 429 ? parseRetryAfter(res.headers.get("retry-after"), clock.now()) : null;
  throw new TwilioError(res.status, errorCodeOf(json.code), message, retryAfter);
}

/** Requests to the account's 2010-04-01 API, each aborted at `timeoutMs`. */
export function restClient(cfg: TwilioConfig, apiBase: string, timeoutMs: number, clock: Clock): RestClient {
  const root = `${apiBase.replace(/\/+$/, "")}/2010-04-01/Accounts/${encodeURIComponent(cfg.accountSid)}`;
  return {
    request(method, path, fields = {}) {
      const form = formOf(fields);
      const post = method === "POST";
      const url = post || form.size === 0 ? root + path : `${root}${path}?${form}`;
      return twilioRequest(cfg, url, { method, form }, timeoutMs, clock);
    },
  };
}
