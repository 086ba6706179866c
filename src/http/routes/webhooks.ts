import { timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { AppContext } from "../../context.ts";
import { AppError, PayloadTooLargeError } from "../../errors.ts";
import { deliveryIdOf, INBOUND_WEBHOOK_PATH, STATUS_WEBHOOK_PATH } from "../../messaging/messenger.ts";
import { twilioSignature, type WebhookParams, verifyTwilioSignature } from "../../messaging/signature.ts";
import { twiml } from "../../services/inbound-messages.ts";
import { errorReply } from "../errors.ts";
import type { AppEnv } from "../types.ts";

// Twilio's webhooks, mounted at /api/webhooks/twilio ahead of the browser middleware (no XSRF check: Twilio sends
// no cookie or Origin; no session; their own body cap). Form-encoded, authenticated by X-Twilio-Signature, an HMAC
// with the auth token over NEARCAST_PUBLIC_URL + path + query + the sorted form fields. A missing or wrong
// signature is a 403 and nothing is read or written.
//
// Without Twilio credentials (the sandbox messenger) there is no auth token to check against, and nothing reaches
// Twilio, so nothing real can call back: the sandbox reports its simulated statuses in-process
// (services.statusCallbacks.apply). These routes then accept unsigned requests, which is how you can try STOP /
// START / HELP against a local install with curl.

export const INVALID_SIGNATURE = "Invalid or missing X-Twilio-Signature.";

/** Twilio's callbacks are a few hundred bytes; this app mounts the webhooks ahead of the general body limit. */
export const WEBHOOK_BODY_LIMIT = 64 * 1024;

/** The form fields of the body; a repeated key keeps every value (Twilio signs them all). */
async function formParams(req: Request): Promise<WebhookParams> {
  const params: WebhookParams = {};
  if (Number(req.headers.get("content-length") ?? 0) > WEBHOOK_BODY_LIMIT) throw new PayloadTooLargeError();
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type.trim())) return params;
  // Without a Content-Length (chunked), Bun's own cap on request bodies bounds what is read here.
  const body = await req.text();
  if (body.length > WEBHOOK_BODY_LIMIT) throw new PayloadTooLargeError();
  for (const [key, value] of new URLSearchParams(body)) {
    const had = params[key];
    params[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return params;
}

/** Path and query exactly as they arrived (what Twilio signed, after NEARCAST_PUBLIC_URL). */
function pathWithQuery(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  return start < 0 ? "/" : url.slice(start).replace(/#.*$/, "");
}

/**
 * Whether `header` is Twilio's signature of this request. Twilio signs the URL exactly as we configured it (our
 * public URL + path + query), so that one HMAC is tried first, with twilio's own signing code; only when it does
 * not match does verifyTwilioSignature try the variants Twilio may also have signed (with or without the port, the
 * normalized URL). Same answer, a third of the work for the requests that matter.
 */
export function signatureValid(authToken: string, publicUrl: string, path: string, params: WebhookParams, header: string | null | undefined): boolean {
  if (!header) return false;
  try {
    const expected = Buffer.from(twilioSignature(authToken, publicUrl, path, params));
    const got = Buffer.from(header);
    if (expected.length === got.length && timingSafeEqual(expected, got)) return true;
  } catch {
    // fall through to the full check
  }
  return verifyTwilioSignature(authToken, publicUrl, path, params, header);
}

/** The form fields of a request Twilio signed; throws 403 when Twilio is configured and the signature is wrong. */
async function signedParams(ctx: AppContext, req: Request, path: string): Promise<WebhookParams> {
  const params = await formParams(req);
  const { config } = ctx;
  if (config.twilio) {
    const ok = signatureValid(config.twilio.authToken, config.publicUrl, pathWithQuery(req.url), params, req.headers.get("x-twilio-signature"));
    if (!ok) {
      ctx.logger.warn(`${req.method} ${path}: rejected, invalid or missing X-Twilio-Signature`);
      throw new AppError(403, "invalid_signature", INVALID_SIGNATURE);
    }
  }
  return params;
}

type Handler = (req: Request) => Promise<Response>;

/**
 * One webhook as a plain Request -> Response function, so that Bun.serve's router can answer it without Hono
 * (server.ts; status callbacks are the busiest route while a broadcast goes out) and the Hono app mounts the same
 * function. Errors get the one error shape (errors.ts errorReply).
 */
function webhook(ctx: AppContext, path: string, handle: (params: WebhookParams, req: Request) => Promise<Response> | Response): Handler {
  const log = (line: string) => ctx.logger.error(line);
  return async (req) => {
    try {
      return await handle(await signedParams(ctx, req, path), req);
    } catch (err) {
      const r = errorReply(err, req.method, path, log);
      return Response.json(r.body, { status: r.status });
    }
  };
}

export interface WebhookHandlers {
  status: Handler;
  inbound: Handler;
}

function createWebhookHandlers(ctx: AppContext): WebhookHandlers {
  return {
    status: webhook(ctx, STATUS_WEBHOOK_PATH, async (params, req) => {
      await ctx.services.statusCallbacks.handleTwilioCallback(params, deliveryIdOf(req.url));
      return new Response(null, { status: 200 });
    }),
    inbound: webhook(ctx, INBOUND_WEBHOOK_PATH, (params) => {
      const { reply } = ctx.services.inboundMessages.handle(params);
      return new Response(twiml(reply), { status: 200, headers: { "content-type": "text/xml; charset=utf-8" } });
    }),
  };
}

const handlers = new WeakMap<AppContext, WebhookHandlers>();

/** The webhook handlers of a context, made once. */
export function webhookHandlersFor(ctx: AppContext): WebhookHandlers {
  let h = handlers.get(ctx);
  if (!h) handlers.set(ctx, (h = createWebhookHandlers(ctx)));
  return h;
}

// For the Hono app: mounted at /api/webhooks/twilio AHEAD of the browser middleware (app.ts).
export const webhookRoutes = new Hono<AppEnv>()
  .post("/status", (c) => webhookHandlersFor(c.var.ctx).status(c.req.raw))
  .post("/inbound", (c) => webhookHandlersFor(c.var.ctx).inbound(c.req.raw));
