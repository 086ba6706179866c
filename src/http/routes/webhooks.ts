import { timingSafeEqual } from "node:crypto";
import { type Context, Hono } from "hono";
import { AppError } from "../../errors.ts";
import { deliveryIdOf } from "../../messaging/messenger.ts";
import { twilioSignature, type WebhookParams, verifyTwilioSignature } from "../../messaging/signature.ts";
import { twiml } from "../../services/inbound-messages.ts";
import { smallBody } from "../middleware/body-limit.ts";
import { publicUrlOf } from "../request.ts";
import type { AppEnv } from "../types.ts";

// Twilio's webhooks, mounted at /api/webhooks/twilio (no XSRF check or cookie: Twilio sends no cookie or Origin; no
// session). Form-encoded, authenticated by X-Twilio-Signature, an HMAC with the auth token over
// NEARCAST_PUBLIC_URL + path + query + the sorted form fields. A missing or wrong signature is a 403 and nothing is
// written.
//
// Without Twilio credentials (the sandbox messenger) there is no auth token to check against, and nothing reaches
// Twilio, so nothing real can call back: the sandbox reports its simulated statuses in-process
// (services.statusCallbacks.apply). These routes then accept unsigned requests, which is how you can try STOP /
// START / HELP against a local install with curl.

export const INVALID_SIGNATURE = "Invalid or missing X-Twilio-Signature.";

/** The form fields of the body; a repeated key keeps every value (Twilio signs them all). */
async function formParams(c: Context<AppEnv>): Promise<WebhookParams> {
  const params: WebhookParams = {};
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test((c.req.header("content-type") ?? "").trim())) return params;
  for (const [key, value] of new URLSearchParams(await c.req.text())) {
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
 * normalized URL). Same answer; a genuine callback costs one HMAC instead of several.
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
async function signedParams(c: Context<AppEnv>): Promise<WebhookParams> {
  const params = await formParams(c);
  const { services, logger } = c.var.ctx;
  // Twilio signs the URL it was given: the public URL the messenger built the callback on (or, with none set, the
  // address Twilio called).
  const twilio = services.settings.current().twilio;
  if (twilio) {
    const ok = signatureValid(twilio.authToken, publicUrlOf(c), pathWithQuery(c.req.url), params, c.req.header("x-twilio-signature"));
    if (!ok) {
      logger.warn(`${c.req.method} ${c.req.path}: rejected, invalid or missing X-Twilio-Signature`);
      throw new AppError(403, "invalid_signature", INVALID_SIGNATURE);
    }
  }
  return params;
}

export const webhookRoutes = new Hono<AppEnv>()
  .post("/status", smallBody, async (c) => {
    await c.var.ctx.services.statusCallbacks.handleTwilioCallback(await signedParams(c), deliveryIdOf(c.req.url));
    return c.body(null, 200);
  })
  .post("/inbound", smallBody, async (c) => {
    const params = await signedParams(c);
    // Past the signature check: Twilio really reaches this server (the setup checklist's "inbound webhook" line).
    c.var.ctx.services.checklist.inboundWebhookSeen();
    const { reply } = c.var.ctx.services.inboundMessages.handle(params);
    return c.body(twiml(reply), 200, { "content-type": "text/xml; charset=utf-8" });
  });
