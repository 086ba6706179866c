// The component tests' one stand-in for the server and the browser's dialogs: fetch (the only thing web/shared/api/client.ts
// calls), window.alert and window.confirm. mockApi() installs them before each test of the file that calls it and puts
// the real ones back after each, so no test leaks its replies into the next.
import { afterEach, beforeEach } from "bun:test";
import type { SiteInfo } from "../../src/schemas/settings.ts";

/** One request a screen made. */
export interface ApiCall {
  method: string;
  /** As requested, query string included. */
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** A JSON body parsed; anything else (FormData) as sent. */
  body: unknown;
}

/** A canned answer: a status and JSON body, or a raw text body; `network` = the server could not be reached. */
export interface Answer {
  status?: number;
  body?: unknown;
  text?: string;
  headers?: Record<string, string>;
  network?: boolean;
  /** The body as a stream the test feeds (an answer read line by line as it arrives, e.g. the CSV import's). */
  stream?: ReadableStream<Uint8Array>;
}

export type Reply = Answer | ((call: ApiCall) => Answer | Promise<Answer>);

export interface MockApi {
  /** Every request, in order. */
  readonly calls: ApiCall[];
  /** Replies by "METHOD /path" (the query string left out). */
  readonly routes: Record<string, Reply>;
  /** The reply to a request no route names; null (the default) fails it, as a request the test did not expect. */
  fallback: Reply | null;
  /** Every window.alert text, in order. */
  readonly alerts: string[];
  /** Every window.confirm question, in order. */
  readonly confirms: string[];
  /** What window.confirm answers (true unless a test says otherwise). */
  confirmAnswer: boolean;
  /** "METHOD /path" of every request, in order. */
  paths(): string[];
}

const routeKey = (method: string, url: string) => `${method} ${url.split("?")[0]}`;

/**
 * A Response as client.ts reads it (ok, status, statusText, headers, text()). Its text() resolves through microtasks
 * only, so a test running on fake timers cannot stall it.
 */
function responseOf(answer: Answer): Response {
  const status = answer.status ?? 200;
  const text = answer.text ?? (answer.body === undefined || answer.body === null ? "" : JSON.stringify(answer.body));
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: "",
    headers: new Headers({ "content-type": "application/json", ...answer.headers }),
    text: async () => text,
    body: answer.stream ?? new Response(text).body,
  } as unknown as Response;
}

function callOf(input: RequestInfo | URL, init: RequestInit): ApiCall {
  const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
  const body = typeof init.body === "string" ? JSON.parse(init.body) : init.body;
  return { method: (init.method ?? "GET").toUpperCase(), url: String(input), headers, body };
}

/** Call at the top of a test file (or a describe); the returned object is reset before every test. */
export function mockApi(): MockApi {
  const api: MockApi = {
    calls: [],
    routes: {},
    fallback: null,
    alerts: [],
    confirms: [],
    confirmAnswer: true,
    paths: () => api.calls.map((c) => routeKey(c.method, c.url)),
  };
  const real = { fetch: globalThis.fetch, alert: window.alert, confirm: window.confirm };

  beforeEach(() => {
    api.calls.length = 0;
    api.alerts.length = 0;
    api.confirms.length = 0;
    for (const key of Object.keys(api.routes)) delete api.routes[key];
    api.fallback = null;
    api.confirmAnswer = true;
    globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const call = callOf(input, init);
      api.calls.push(call);
      const key = routeKey(call.method, call.url);
      const reply = api.routes[key] ?? api.fallback;
      if (!reply) throw new Error(`unexpected fetch ${key}`);
      const answer = typeof reply === "function" ? await reply(call) : reply;
      if (answer.network) throw new TypeError("Failed to fetch");
      return responseOf(answer);
    }) as typeof fetch;
    window.alert = (message?: unknown) => void api.alerts.push(String(message));
    window.confirm = (message?: string) => {
      api.confirms.push(String(message));
      return api.confirmAnswer;
    };
  });

  afterEach(() => {
    globalThis.fetch = real.fetch;
    window.alert = real.alert;
    window.confirm = real.confirm;
  });

  return api;
}

/** A GET /api/site answer (set `site.value` to it, or answer "GET /api/site" with it); a fresh install by default. */
export function siteInfo(overrides: Partial<SiteInfo> = {}): SiteInfo {
  return {
    brandName: "Nearcast",
    contactEmail: "hello@nearcast.app",
    publicUrl: "http://192.168.1.20:3000",
    publicUrlSource: "request",
    publicUrlPrivate: true,
    setupNeeded: false,
    ownerSignup: "open",
    smsNumber: null,
    ...overrides,
  };
}

/** A paged list's answer (ListCustomers, ListBroadcasts, ...): the whole list as one (last) page. */
export const onePage = <T>(items: T[]) => ({ items, nextCursor: null, total: items.length });
