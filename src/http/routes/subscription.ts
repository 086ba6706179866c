import { type Context, Hono } from "hono";
import type { AppContext } from "../../context.ts";
import type { RequestMeta } from "../../services/subscriptions.ts";
import { errorReply } from "../errors.ts";
import { securityHeaderPairs } from "../middleware/security-headers.ts";
import { checkXsrf, XSRF_HEADER } from "../middleware/xsrf.ts";
import { clientAddress, clientIp, JSON_BODY_LIMIT, readJsonRequest } from "../request.ts";
import type { AppEnv } from "../types.ts";

export const SUBSCRIBE_PATH = "/api/subscription/Subscribe";

/** The user agent as recorded with consent (capped). */
const userAgentOf = (value: string | null | undefined) => value?.slice(0, 500) ?? null;

/** Where a request came from, as recorded with consent (for Hono routes). */
export function requestMeta(c: Context<AppEnv>): RequestMeta {
  return { ip: clientIp(c), userAgent: userAgentOf(c.req.header("user-agent")) };
}

/** Answers one subscribe request; `peer` is the socket's remote address. */
export type SubscribeHandler = (req: Request, peer: string | null | undefined) => Promise<Response>;

/**
 * POST /api/subscription/Subscribe, the public endpoint behind the QR code: {businessId, phone, contactPreference,
 * source?} -> {message}. It is the one hot path of the server (every scan of a poster), so it is answered without the
 * Hono router and its generic middleware chain, by Bun.serve's own `routes` (http/native-routes.ts) AND by the Hono app
 * (the route registered ahead of the browser middleware, so in-process API tests run this same code). It does, in
 * the same order, everything that chain does for this route, with the same functions:
 *   - XSRF double-submit check (middleware/xsrf.ts checkXsrf): 403 before the body is read;
 *   - the API body cap (JSON_BODY_LIMIT, 413), Content-Type (415), JSON object (400) (request.ts readJsonRequest);
 *   - the security headers (the list read off the securityHeaders middleware itself) on every answer;
 *   - errors in the one shape {error, code, fields?} with Retry-After on 429 (errors.ts errorReply).
 * The session lookup is skipped: this route is public and never reads the user. Rate limit, validation, E.164 and
 * the writes are the service's (services/subscriptions.ts), whichever way the request came in.
 */
export function createSubscribeHandler(ctx: AppContext): SubscribeHandler {
  const log = (line: string) => ctx.logger.error(line);
  // Built once: a Response copies a Headers object natively (about 0.4 µs), a plain object header by header (1.4 µs).
  let okHeaders: Headers | undefined;
  const ready = securityHeaderPairs().then((pairs) => {
    okHeaders = new Headers([...pairs, ["content-type", "application/json"]] as [string, string][]);
  });
  const json = (body: unknown, status: number, headers: Headers) => new Response(JSON.stringify(body), { status, headers });
  const withRetryAfter = (seconds: number) => {
    const headers = new Headers(okHeaders);
    headers.set("retry-after", String(seconds));
    return headers;
  };

  return async function subscribe(req, peer) {
    if (!okHeaders) await ready;
    try {
      checkXsrf(req.headers.get("cookie"), req.headers.get(XSRF_HEADER));
      const body = await readJsonRequest(req, JSON_BODY_LIMIT);
      const meta: RequestMeta = {
        ip: clientAddress(ctx.config.trustProxy, req.headers.get("x-forwarded-for"), peer),
        userAgent: userAgentOf(req.headers.get("user-agent")),
      };
      return json(await ctx.services.subscriptions.subscribe(body, meta), 200, okHeaders!);
    } catch (err) {
      const r = errorReply(err, req.method, SUBSCRIBE_PATH, log);
      return json(r.body, r.status, r.retryAfter === undefined ? okHeaders! : withRetryAfter(r.retryAfter));
    }
  };
}

const handlers = new WeakMap<AppContext, SubscribeHandler>();

/** The handler of a context, made once. */
export function subscribeHandlerFor(ctx: AppContext): SubscribeHandler {
  let handler = handlers.get(ctx);
  if (!handler) handlers.set(ctx, (handler = createSubscribeHandler(ctx)));
  return handler;
}

// For the Hono app: mounted at /api/subscription AHEAD of the browser middleware (app.ts), which the handler replaces.
export const subscriptionRoutes = new Hono<AppEnv>().post("/Subscribe", (c) =>
  subscribeHandlerFor(c.var.ctx)(c.req.raw, c.env?.requestIP?.(c.req.raw)?.address),
);
