// A fake Twilio REST API on loopback, speaking the real wire format, for use through the REAL `twilio` client
// (point TWILIO_API_BASE at fake.url). It answers like api.twilio.com does:
//   POST /2010-04-01/Accounts/{AccountSid}/Messages.json        form-encoded, Basic auth -> 201 message JSON
//   GET  /2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json  -> 200 message JSON | 404 (20404)
//   GET  /2010-04-01/Accounts/{AccountSid}/Messages.json        ?To=&From=&DateSent=&DateSent<=&DateSent>=&PageSize=&Page=
//   GET  /2010-04-01/Accounts/{AccountSid}.json                 -> 200 account JSON (status: fake.accountStatus)
//   GET  /v1/Content?PageSize=&Page=                            content.twilio.com's template list (fake.templates)
//   GET  /v1/Content/{HX sid}/ApprovalRequests                  its WhatsApp approval -> 200 | 404 (20404)
// A message create may carry ContentSid + ContentVariables instead of Body (an unknown sid: 400, 21655). A WhatsApp
// number marked with closeWindow() answers a free-form message (no ContentSid) as Twilio does outside the 24-hour
// window: created, then failed with 63016.
// Wrong credentials -> 401 (20003). Replies can be scripted per call or per number: created, rate_limited (429,
// optional Retry-After), server_error (5xx), opted_out (400, 21610), invalid_number (400, 21211), any other
// Twilio error, and hang (never answers). Every request is recorded (parsed form, query, auth, headers, time, and
// whether the client gave up on it before the answer). Every request is also checked against Twilio's own API
// definitions (fake-twilio-contract.ts): one that breaks them is answered as Twilio would, and stop() throws.
import type { Server } from "bun";
import { ACCOUNT_ERROR_REPLIES, type AccountErrorReplyName, FakeAccountAuth } from "./fake-twilio-account.ts";
import { createContractGuard } from "./fake-twilio-contract.ts";
import { type FakeInbound, sendInbound } from "./fake-twilio-inbound.ts";
import { createFakeMedia, type FakeMedia } from "./fake-twilio-media.ts";

export const FAKE_ACCOUNT_SID = "AC0123456789abcdef0123456789abcdef";
export const FAKE_AUTH_TOKEN = "fake-auth-token-5f2b8c1d9e7a4b3c";
/** The senders settings() names (the fake accepts any). */
export const FAKE_SMS_FROM = "+15550001111";
export const FAKE_WHATSAPP_FROM = "+15550002222";

export type FakeReplyName = "created" | "rate_limited" | "server_error" | "opted_out" | "invalid_number" | "hang" | AccountErrorReplyName;

export type FakeReply =
  | FakeReplyName
  | { reply: "created"; status?: string; delayMs?: number }
  | { reply: "rate_limited"; retryAfter?: string; delayMs?: number }
  /** created: true = the message IS stored (and can be looked up) although the answer is an error: a lost answer. */
  | { reply: "server_error"; status?: number; created?: boolean; delayMs?: number }
  | { reply: "hang"; created?: boolean }
  | { reply: "error"; status: number; code: number; message: string; delayMs?: number };

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Form fields of a POST; a repeated key becomes an array. */
  form: Record<string, string | string[]>;
  contentType: string | null;
  /** Basic credentials as received; null without an Authorization header. */
  auth: { username: string; password: string } | null;
  headers: Record<string, string>;
  at: Date;
  /** The client aborted the request before it was answered (e.g. its timeout fired on a hang). */
  aborted: boolean;
}

/** A template of the fake account, as the Content API holds it. */
export interface FakeTemplate {
  sid: string;
  friendlyName: string;
  language: string;
  /** Sample values, e.g. {"1": "Rosa's Bakery"}. */
  variables: Record<string, string>;
  /** Content API types, e.g. {"twilio/text": {body: "Hi {{1}}"}} or {"twilio/media": {body, media: [url]}}. */
  types: Record<string, Record<string, unknown>>;
  /** WhatsApp approval; null = never submitted (ApprovalRequests answers 404). */
  approval: { status: string; category: string; rejectionReason?: string } | null;
}

export const FAKE_TEXT_TEMPLATE_SID = "HX11111111111111111111111111111111";
export const FAKE_MEDIA_TEMPLATE_SID = "HX22222222222222222222222222222222";
export const FAKE_PENDING_TEMPLATE_SID = "HX33333333333333333333333333333333";
export const FAKE_REJECTED_TEMPLATE_SID = "HX44444444444444444444444444444444";

/** A MARKETING template of the fake account, with its approval status (and reason when rejected). */
function marketingTemplate(sid: string, friendlyName: string, language: string, variables: Record<string, string>, types: FakeTemplate["types"], status: string, rejectionReason?: string): FakeTemplate {
  return { sid, friendlyName, language, variables, types, approval: { status, category: "MARKETING", ...(rejectionReason && { rejectionReason }) } };
}

/** The fake account's templates at start (and after reset()): approved text and media ones, a pending and a rejected. */
export function defaultFakeTemplates(): FakeTemplate[] {
  return [
    marketingTemplate(FAKE_TEXT_TEMPLATE_SID, "weekly_offer", "en", { "1": "Rosa's Bakery", "2": "Fresh bread at 7!" }, { "twilio/text": { body: "{{1}} has a new offer: {{2}} Reply STOP to unsubscribe." } }, "approved"),
    marketingTemplate(FAKE_MEDIA_TEMPLATE_SID, "photo_offer", "en", { "1": "Rosa's Bakery", "2": "New cinnamon rolls", "3": "roll.jpg" }, { "twilio/media": { body: "{{1}}: {{2}}", media: ["https://shop.example/uploads/{{3}}"] } }, "approved"),
    marketingTemplate(FAKE_PENDING_TEMPLATE_SID, "new_menu", "es", { "1": "menu" }, { "twilio/text": { body: "Nuevo {{1}}" } }, "pending"),
    marketingTemplate(FAKE_REJECTED_TEMPLATE_SID, "flash_sale", "en", { "1": "50%" }, { "twilio/text": { body: "Flash sale {{1}} off" } }, "rejected", "INVALID_FORMAT"),
  ];
}

export interface FakeMessage {
  sid: string;
  /** A template send: its ContentSid and ContentVariables (null for Body messages). */
  contentSid: string | null;
  contentVariables: string | null;
  accountSid: string;
  to: string;
  from: string | null;
  body: string;
  messagingServiceSid: string | null;
  mediaUrls: string[];
  statusCallback: string | null;
  status: string;
  errorCode: number | null;
  errorMessage: string | null;
  dateCreated: Date;
  dateUpdated: Date;
  dateSent: Date | null;
}

export interface FakeTwilioOptions {
  accountSid?: string;
  authToken?: string;
  /** Added before every answer. */
  latencyMs?: number;
  now?: () => Date;
}

export interface FakeTwilio {
  /** Use as TWILIO_API_BASE. */
  readonly url: string;
  readonly accountSid: string;
  /** The token the fake accepts now (see rotateAuthToken). */
  readonly authToken: string;
  /** A new primary token, as in the console: requests with the old one get 401 (20003); reset() restores it. */
  rotateAuthToken(next: string): void;
  readonly requests: RecordedRequest[];
  readonly messages: Map<string, FakeMessage>;
  latencyMs: number;
  /** The account's status as GET Accounts/{sid}.json answers it: "active" (default), "suspended" or "closed". */
  accountStatus: string;
  /** The TWILIO_* settings that point Nearcast at this fake (its account, token and URL) with its two senders. */
  settings(): Record<string, string>;
  /** Forgets the requests and messages and drops the latency: a clean fake for the next test. */
  reset(): void;
  /** POSTs to Messages.json, in order. */
  sends(): RecordedRequest[];
  /** Replies for the next message creations, in order; afterwards "created". */
  script(...replies: FakeReply[]): void;
  /** Replies for creations to this number (with or without `whatsapp:`); takes precedence over script(). */
  scriptFor(to: string, ...replies: FakeReply[]): void;
  /** Replies for the next reads (fetch one, list, and the Content API's list and approvals); "created" means answer
   * normally. */
  scriptReads(...replies: FakeReply[]): void;
  /** Moves a stored message to another status (what a real carrier would do). */
  setStatus(sid: string, status: string, error?: { code: number; message: string }): void;
  /** Stores a message as if it had been created earlier (e.g. by another process). */
  addMessage(fields: Partial<FakeMessage> & { to: string; body: string }): FakeMessage;
  /** The Content API's templates (edit freely; reset() restores defaultFakeTemplates()). */
  templates: FakeTemplate[];
  /** Content API requests (list and approvals), in order. */
  contentRequests(): RecordedRequest[];
  /** Free-form WhatsApp to this number fails with 63016 (outside the 24-hour window); templates still go. */
  closeWindow(to: string): void;
  /** Requests that broke Twilio's API definitions, taken back (stop() throws while any are left untaken). */
  takeContractViolations(): string[];
  /** A person texts our number: POSTs Twilio's signed inbound form (OptOutType on keywords, as with Advanced Opt-Out)
   * to `webhookUrl`, signed for `publicUrl`; the status and TwiML answer. */
  sendInbound(webhookUrl: string, publicUrl: string, message: FakeInbound): Promise<{ status: number; twiml: string }>;
  /** The media of incoming messages (fake-twilio-media.ts): `media.add` gives the path for a MediaUrlN. */
  media: FakeMedia;
  stop(): Promise<void>;
}

const API = "/2010-04-01";
const rfc2822 = (d: Date) => d.toUTCString().replace("GMT", "+0000");

function sid(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return prefix + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function twilioError(status: number, code: number, message: string, extra: Record<string, unknown> = {}): Response {
  return Response.json(
    { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status, ...extra },
    { status },
  );
}

function normalize(reply: FakeReply): Exclude<FakeReply, FakeReplyName> {
  if (typeof reply !== "string") return reply;
  switch (reply) {
    case "created":
      return { reply: "created" };
    case "rate_limited":
      return { reply: "rate_limited" };
    case "server_error":
      return { reply: "server_error" };
    case "hang":
      return { reply: "hang" };
    case "opted_out":
      return { reply: "error", status: 400, code: 21610, message: "Attempt to send to unsubscribed recipient" };
    case "invalid_number":
      return { reply: "error", status: 400, code: 21211, message: "Invalid 'To' Phone Number" };
    default:
      return ACCOUNT_ERROR_REPLIES[reply];
  }
}

const stripWhatsapp = (n: string) => n.replace(/^whatsapp:/i, "");

/** The text Twilio makes of a template and its variables. */
function renderFakeTemplate(t: FakeTemplate, variables: string | null): string {
  const main = t.types["twilio/media"] ?? t.types["twilio/text"] ?? {};
  const values: Record<string, string> = variables ? JSON.parse(variables) : {};
  return String(main.body ?? "").replace(/\{\{\s*(\w+)\s*\}\}/g, (all, k: string) => values[k] ?? t.variables[k] ?? all);
}

export function startFakeTwilio(options: FakeTwilioOptions = {}): FakeTwilio {
  const accountSid = options.accountSid ?? FAKE_ACCOUNT_SID;
  const credentials = new FakeAccountAuth(options.authToken ?? FAKE_AUTH_TOKEN);
  const media = createFakeMedia(accountSid);
  const now = options.now ?? (() => new Date());
  const requests: RecordedRequest[] = [];
  const messages = new Map<string, FakeMessage>();
  const createScript: FakeReply[] = [];
  const readScript: FakeReply[] = [];
  const numberScripts = new Map<string, FakeReply[]>();
  const hung: Array<(r: Response) => void> = [];
  const closedWindows = new Set<string>();
  const contract = createContractGuard();

  function messageJson(m: FakeMessage) {
    const uri = `${API}/Accounts/${m.accountSid}/Messages/${m.sid}.json`;
    return {
      account_sid: m.accountSid,
      api_version: "2010-04-01",
      body: m.body,
      date_created: rfc2822(m.dateCreated),
      date_sent: m.dateSent ? rfc2822(m.dateSent) : null,
      date_updated: rfc2822(m.dateUpdated),
      direction: "outbound-api",
      error_code: m.errorCode,
      error_message: m.errorMessage,
      from: m.from,
      messaging_service_sid: m.messagingServiceSid,
      num_media: String(m.mediaUrls.length),
      num_segments: String(Math.max(1, Math.ceil(m.body.length / 153))),
      price: null,
      price_unit: "USD",
      sid: m.sid,
      status: m.status,
      subresource_uris: { media: `${API}/Accounts/${m.accountSid}/Messages/${m.sid}/Media.json` },
      to: m.to,
      uri,
    };
  }

  function accountJson() {
    const created = new Date("2024-03-01T10:00:00Z");
    const uri = `${API}/Accounts/${accountSid}`;
    return {
      auth_token: credentials.current,
      date_created: rfc2822(created),
      date_updated: rfc2822(created),
      friendly_name: "My first Twilio account",
      owner_account_sid: accountSid,
      sid: accountSid,
      status: fake.accountStatus,
      subresource_uris: { messages: `${uri}/Messages.json` },
      type: "Full",
      uri: `${uri}.json`,
    };
  }

  function store(fields: Partial<FakeMessage> & { to: string; body: string }): FakeMessage {
    const at = fields.dateCreated ?? now();
    const m: FakeMessage = {
      sid: sid(fields.mediaUrls?.length ? "MM" : "SM"),
      contentSid: null,
      contentVariables: null,
      accountSid,
      from: null,
      messagingServiceSid: null,
      mediaUrls: [],
      statusCallback: null,
      status: "queued",
      errorCode: null,
      errorMessage: null,
      dateUpdated: at,
      dateSent: null,
      ...fields,
      dateCreated: at,
    };
    messages.set(m.sid, m);
    return m;
  }

  function nextReply(queue: FakeReply[] | undefined): Exclude<FakeReply, FakeReplyName> {
    const r = queue?.shift();
    return normalize(r ?? "created");
  }

  function hang(): Promise<Response> {
    return new Promise((resolve) => hung.push(resolve));
  }

  async function answer(reply: Exclude<FakeReply, FakeReplyName>, ok: () => Response, lost?: () => void): Promise<Response> {
    const delay = ("delayMs" in reply ? (reply.delayMs ?? 0) : 0) + fake.latencyMs;
    if (delay > 0) await Bun.sleep(delay);
    switch (reply.reply) {
      case "created":
        return ok();
      case "rate_limited": {
        const res = twilioError(429, 20429, "Too Many Requests");
        if (reply.retryAfter !== undefined) res.headers.set("Retry-After", reply.retryAfter);
        return res;
      }
      case "server_error":
        if (reply.created) lost?.();
        return twilioError(reply.status ?? 500, 20500, "Internal Server Error");
      case "hang":
        if (reply.created) lost?.();
        return hang();
      case "error":
        return twilioError(reply.status, reply.code, reply.message);
    }
  }

  function create(form: Record<string, string | string[]>, reply: Exclude<FakeReply, FakeReplyName>): Promise<Response> {
    const one = (k: string) => {
      const v = form[k];
      return Array.isArray(v) ? v[0] : v;
    };
    const to = one("To");
    const from = one("From") ?? null;
    const mss = one("MessagingServiceSid") ?? null;
    const body = one("Body") ?? "";
    const media = form.MediaUrl === undefined ? [] : ([] as string[]).concat(form.MediaUrl);
    const contentSid = one("ContentSid") ?? null;
    const contentVariables = one("ContentVariables") ?? null;
    const template = contentSid ? fake.templates.find((t) => t.sid === contentSid) : undefined;
    if (contentSid && !template) return Promise.resolve(twilioError(400, 21655, "The ContentSid is Invalid."));
    if (contentVariables !== null) {
      let ok = false;
      try {
        const parsed = JSON.parse(contentVariables);
        ok = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
      } catch {}
      if (!ok) return Promise.resolve(twilioError(400, 21656, "The ContentVariables Parameter is invalid."));
    }
    // Twilio's own validation, before the script (a real API refuses these whatever happens next).
    if (!to) return Promise.resolve(twilioError(400, 21604, "A 'To' phone number is required."));
    if (!from && !mss) return Promise.resolve(twilioError(400, 21603, "A 'From' phone number is required."));
    if (!body && media.length === 0 && !contentSid) return Promise.resolve(twilioError(400, 21602, "Message body is required."));
    if (!/^\+[1-9]\d{6,14}$/.test(stripWhatsapp(to))) {
      return Promise.resolve(twilioError(400, 21211, `Invalid 'To' Phone Number: ${to}`));
    }
    // Twilio renders a template's text itself.
    const rendered = template ? renderFakeTemplate(template, contentVariables) : body;
    const outside = !contentSid && /^whatsapp:/i.test(to) && closedWindows.has(stripWhatsapp(to));
    const fields = {
      to,
      from: mss ? null : from,
      body: rendered,
      contentSid,
      contentVariables,
      ...(outside ? { status: "failed", errorCode: 63016, errorMessage: "Failed to send freeform message because you are outside the allowed window. If you are using WhatsApp, please use a Message Template." } : {}),
      messagingServiceSid: mss,
      mediaUrls: media,
      statusCallback: one("StatusCallback") ?? null,
    };
    if (!outside) Object.assign(fields, { status: mss ? "accepted" : "queued" });
    const make = () => store(fields);
    return answer(
      reply,
      () => {
        const m = make();
        if (reply.reply === "created" && reply.status) m.status = reply.status;
        return Response.json(messageJson(m), { status: 201 });
      },
      () => void make(),
    );
  }

  function matchesDate(filter: string, value: Date | null, op: "=" | "<=" | ">="): boolean {
    if (!value) return false;
    const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(filter);
    const f = dayOnly ? filter : new Date(filter).toISOString();
    const v = dayOnly ? value.toISOString().slice(0, 10) : value.toISOString();
    return op === "=" ? v === f : op === "<=" ? v <= f : v >= f;
  }

  function list(query: URLSearchParams, path: string): Response {
    const pageSize = Math.min(1000, Math.max(1, Number(query.get("PageSize") ?? 50) || 50));
    const page = Math.max(0, Number(query.get("Page") ?? 0) || 0);
    const to = query.get("To");
    const from = query.get("From");
    const filters: Array<[string, "=" | "<=" | ">="]> = [
      ["DateSent", "="],
      ["DateSent<", "<="],
      ["DateSent>", ">="],
    ];
    const all = [...messages.values()]
      .filter((m) => m.accountSid === accountSid)
      .filter((m) => !to || m.to === to)
      .filter((m) => !from || m.from === from)
      .filter((m) => filters.every(([k, op]) => !query.has(k) || matchesDate(query.get(k) ?? "", m.dateSent, op)))
      .reverse() // newest first; insertion order breaks ties
      .sort((a, b) => b.dateCreated.getTime() - a.dateCreated.getTime());
    const slice = all.slice(page * pageSize, (page + 1) * pageSize);
    const uriFor = (p: number) => {
      const q = new URLSearchParams(query);
      q.set("PageSize", String(pageSize));
      q.set("Page", String(p));
      return `${path}?${q.toString()}`;
    };
    return Response.json({
      end: page * pageSize + Math.max(0, slice.length - 1),
      first_page_uri: uriFor(0),
      messages: slice.map(messageJson),
      next_page_uri: (page + 1) * pageSize < all.length ? uriFor(page + 1) : null,
      page,
      page_size: pageSize,
      previous_page_uri: page > 0 ? uriFor(page - 1) : null,
      start: page * pageSize,
      uri: uriFor(page),
    });
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => {
      headers[k] = v;
    });
    let auth: RecordedRequest["auth"] = null;
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.get("authorization") ?? "");
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], "base64").toString("utf8");
      const i = decoded.indexOf(":");
      auth = { username: decoded.slice(0, i), password: decoded.slice(i + 1) };
    }
    const contentType = req.headers.get("content-type");
    const form: Record<string, string | string[]> = {};
    if (req.method === "POST") {
      for (const [k, v] of new URLSearchParams(await req.text())) {
        const prev = form[k];
        form[k] = prev === undefined ? v : ([] as string[]).concat(prev, v);
      }
    }
    const record: RecordedRequest = {
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      form,
      contentType,
      auth,
      headers,
      at: now(),
      aborted: false,
    };
    requests.push(record);
    let answered = false;
    req.signal.addEventListener("abort", () => {
      if (!answered) record.aborted = true;
    });
    // A media URL is no REST resource of the API definitions (Twilio's MediaUrlN has no .json).
    const res = media.serve(url, credentials.accepts(accountSid, auth)) ?? contract.check(record) ?? (await route(req, url, form, contentType, auth));
    answered = true;
    return res;
  }

  function route(
    req: Request,
    url: URL,
    form: Record<string, string | string[]>,
    contentType: string | null,
    auth: RecordedRequest["auth"],
  ): Response | Promise<Response> {
    if (!credentials.accepts(accountSid, auth)) {
      const res = twilioError(401, 20003, "Authenticate", { detail: "Your AccountSid or AuthToken was incorrect." });
      res.headers.set("WWW-Authenticate", 'Basic realm="Twilio API"');
      return res;
    }
    const notFound = () => twilioError(404, 20404, `The requested resource ${url.pathname} was not found`);
    if (url.pathname.startsWith("/v1/Content")) return content(req, url, notFound);
    const account = /^\/2010-04-01\/Accounts\/([^/]+)\.json$/.exec(url.pathname);
    if (account) return req.method === "GET" && account[1] === accountSid ? Response.json(accountJson()) : notFound();
    const m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages(?:\/([^/]+))?\.json$/.exec(url.pathname);
    if (!m || m[1] !== accountSid) return notFound();
    const messageSid = m[2];
    if (req.method === "POST" && !messageSid) {
      if (!contentType?.startsWith("application/x-www-form-urlencoded")) {
        return twilioError(400, 20001, "Content-Type must be application/x-www-form-urlencoded");
      }
      const to = typeof form.To === "string" ? stripWhatsapp(form.To) : "";
      const perNumber = numberScripts.get(to);
      return create(form, nextReply(perNumber?.length ? perNumber : createScript));
    }
    if (req.method === "GET") {
      const reply = nextReply(readScript);
      if (messageSid) {
        return answer(reply, () => {
          const found = messages.get(messageSid);
          return found && found.accountSid === accountSid ? Response.json(messageJson(found)) : notFound();
        });
      }
      return answer(reply, () => list(url.searchParams, url.pathname));
    }
    return twilioError(405, 20004, "Method not allowed");
  }

  /** content.twilio.com: the list (paged like Twilio's v1 lists: contents + meta) and each approval. */
  function content(req: Request, url: URL, notFound: () => Response): Response | Promise<Response> {
    if (req.method !== "GET") return twilioError(405, 20004, "Method not allowed");
    const reply = nextReply(readScript);
    const host = "https://content.twilio.com";
    const approval = /^\/v1\/Content\/([^/]+)\/ApprovalRequests$/.exec(url.pathname);
    if (approval) {
      return answer(reply, () => {
        const t = fake.templates.find((x) => x.sid === approval[1]);
        if (!t?.approval) return notFound();
        return Response.json({
          account_sid: accountSid,
          sid: t.sid,
          url: `${host}/v1/Content/${t.sid}/ApprovalRequests`,
          whatsapp: {
            allow_category_change: true,
            category: t.approval.category,
            content_type: Object.keys(t.types)[0],
            name: t.friendlyName,
            rejection_reason: t.approval.rejectionReason ?? "",
            status: t.approval.status,
            type: "whatsapp",
          },
        });
      });
    }
    if (url.pathname !== "/v1/Content") return notFound();
    return answer(reply, () => {
      const pageSize = Math.min(1000, Math.max(1, Number(url.searchParams.get("PageSize") ?? 50) || 50));
      const page = Math.max(0, Number(url.searchParams.get("Page") ?? 0) || 0);
      const slice = fake.templates.slice(page * pageSize, (page + 1) * pageSize);
      const pageUrl = (p: number) => `${host}/v1/Content?PageSize=${pageSize}&Page=${p}${p > 0 ? `&PageToken=PT${p}` : ""}`;
      const created = rfc2822(new Date("2025-05-01T10:00:00Z"));
      return Response.json({
        contents: slice.map((t) => ({
          account_sid: accountSid,
          date_created: created,
          date_updated: created,
          friendly_name: t.friendlyName,
          language: t.language,
          links: {
            approval_create: `${host}/v1/Content/${t.sid}/ApprovalRequests/whatsapp`,
            approval_fetch: `${host}/v1/Content/${t.sid}/ApprovalRequests`,
          },
          sid: t.sid,
          types: t.types,
          url: `${host}/v1/Content/${t.sid}`,
          variables: t.variables,
        })),
        meta: {
          first_page_url: pageUrl(0),
          key: "contents",
          next_page_url: (page + 1) * pageSize < fake.templates.length ? pageUrl(page + 1) : null,
          page,
          page_size: pageSize,
          previous_page_url: page > 0 ? pageUrl(page - 1) : null,
          url: pageUrl(page),
        },
      });
    });
  }

  const server: Server<undefined> = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: handle });

  const fake: FakeTwilio = {
    url: `http://127.0.0.1:${server.port}`,
    accountSid,
    get authToken() {
      return credentials.current;
    },
    rotateAuthToken: (next) => credentials.rotate(next),
    requests,
    messages,
    latencyMs: options.latencyMs ?? 0,
    accountStatus: "active",
    settings: () => ({
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: credentials.current,
      TWILIO_FROM: FAKE_SMS_FROM,
      TWILIO_WHATSAPP_FROM: FAKE_WHATSAPP_FROM,
      TWILIO_API_BASE: `http://127.0.0.1:${server.port}`,
    }),
    templates: defaultFakeTemplates(),
    contentRequests: () => requests.filter((r) => r.path.startsWith("/v1/Content")),
    closeWindow: (to) => void closedWindows.add(stripWhatsapp(to)),
    takeContractViolations: () => contract.take(),
    sendInbound: (webhookUrl, publicUrl, message) => sendInbound({ accountSid, authToken: credentials.current }, webhookUrl, publicUrl, message),
    media,
    reset() {
      media.clear();
      requests.length = 0;
      messages.clear();
      closedWindows.clear();
      fake.templates = defaultFakeTemplates();
      fake.latencyMs = 0;
      fake.accountStatus = "active";
      credentials.reset();
    },
    sends: () => requests.filter((r) => r.method === "POST" && r.path.endsWith("/Messages.json")),
    script: (...replies) => void createScript.push(...replies),
    scriptFor: (to, ...replies) => {
      const key = stripWhatsapp(to);
      numberScripts.set(key, [...(numberScripts.get(key) ?? []), ...replies]);
    },
    scriptReads: (...replies) => void readScript.push(...replies),
    setStatus(messageSid, status, error) {
      const m = messages.get(messageSid);
      if (!m) throw new Error(`fake Twilio: no message ${messageSid}`);
      m.status = status;
      m.dateUpdated = now();
      if (["sending", "sent", "delivered", "undelivered", "failed", "read"].includes(status)) m.dateSent ??= now();
      m.errorCode = error?.code ?? null;
      m.errorMessage = error?.message ?? null;
    },
    addMessage: (fields) => store(fields),
    async stop() {
      for (const resolve of hung.splice(0)) resolve(twilioError(503, 20503, "Service Unavailable"));
      await server.stop(true);
      contract.assertNone();
    },
  };
  return fake;
}
