import { timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { Hono } from "hono";
import { AppError, PayloadTooLargeError } from "../../errors.ts";
import { parseDeliveryId } from "../../messaging/messenger.ts";
import { twilioSignature, type WebhookParams, verifyTwilioSignature } from "../../messaging/signature.ts";
import { twiml } from "../../services/inbound-messages.ts";
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
async function formParams(c: Context<AppEnv>): Promise<WebhookParams> {
  const params: WebhookParams = {};
  if (Number(c.req.header("content-length") ?? 0) > WEBHOOK_BODY_LIMIT) throw new PayloadTooLargeError();
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type.trim())) return params;
  // Without a Content-Length (chunked), Bun's own cap on request bodies bounds what is read here.
  const body = await c.req.text();
  if (body.length > WEBHOOK_BODY_LIMIT) throw new PayloadTooLargeError();
  for (const [key, value] of new URLSearchParams(body)) {
    const had = params[key];
    params[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return params;
}

/** Path and query exactly as they arrived (what Twilio signed, after NEARCAST_PUBLIC_URL). */
function pathWithQuery(c: Context<AppEnv>): string {
  const url = c.req.url;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  return start < 0 ? "/" : url.slice(start).replace(/#.*$/, "");
}

/**
 * Whether `header` is Twilio's signature of this request. Twilio signs the URL exactly as we configured it (our
 * public URL + path + query), so that one HMAC is tried first, with twilio's own signing code; only when it does
 * not match does verifyTwilioSignature try the variants Twilio may also have signed (with or without the port, the
 * normalized URL). Same answer, a third of the work for the requests that matter.
 */
export function signatureValid(authToken: string, publicUrl: string, path: string, params: WebhookParams, header: string | undefined): boolean {
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
async function signedParams(c: Context<AppEnv>): Promise<WebhookParams> {
  const params = await formParams(c);
  const { config } = c.var.ctx;
  if (config.twilio) {
    const ok = signatureValid(config.twilio.authToken, config.publicUrl, pathWithQuery(c), params, c.req.header("x-twilio-signature"));
    if (!ok) {
      c.var.ctx.logger.warn(`${c.req.method} ${c.req.path}: rejected, invalid or missing X-Twilio-Signature`);
      throw new AppError(403, "invalid_signature", INVALID_SIGNATURE);
    }
  }
  return params;
}

/** ?delivery=42 from the status callback URL (the dispatcher puts it there); null when absent or malformed. */
function deliveryQuery(c: Context<AppEnv>): number | null {
  return parseDeliveryId(c.req.query("delivery"));
}

export const webhookRoutes = new Hono<AppEnv>()
  .post("/status", async (c) => {
    const params = await signedParams(c);
    await c.var.ctx.services.statusCallbacks.handleTwilioCallback(params, deliveryQuery(c));
    return c.body(null, 200);
  })
  .post("/inbound", async (c) => {
    const params = await signedParams(c);
    const { reply } = c.var.ctx.services.inboundMessages.handle(params);
    return c.body(twiml(reply), 200, { "content-type": "text/xml; charset=utf-8" });
  });
