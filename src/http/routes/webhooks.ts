import { timingSafeEqual } from "node:crypto";
import { type Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import { AppError, ForbiddenError } from "../../errors.ts";
import { deliveryIdOf } from "../../messaging/messenger.ts";
import { twilioSignature, type WebhookParams, verifyTwilioSignature } from "../../messaging/signature.ts";
import type { UserRow } from "../../repos/users.ts";
import { INBOUND_WEBHOOK_PATH } from "../../schemas/checklist.ts";
import { SANDBOX_DOOR_CLOSED, twiml } from "../../services/inbound-messages.ts";
import { requireUser } from "../middleware/auth.ts";
import { smallBody } from "../middleware/body-limit.ts";
import { echoes, XSRF_COOKIE, XSRF_HEADER } from "../middleware/xsrf.ts";
import { publicUrlOf } from "../request.ts";
import type { AppEnv } from "../types.ts";
import { testIdOf } from "../../services/broadcasts/test-outcome.ts";

// Twilio's webhooks, mounted at /api/webhooks/twilio (no XSRF check or cookie: Twilio sends no cookie or Origin; no
// session). Form-encoded, authenticated by X-Twilio-Signature, an HMAC with the auth token over
// NEARCAST_PUBLIC_URL + path + query + the sorted form fields. A missing or wrong signature is a 403 and nothing is
// written.
//
// Without Twilio credentials (the sandbox messenger) there is no auth token to check against, and nothing reaches
// Twilio, so nothing real can call back: the sandbox reports its simulated statuses in-process
// (services.statusCallbacks.apply). The routes then want either this install's secret key in the URL (?key=, from
// GET /Sandbox as an admin; never logged: log lines carry the path only) or a signed-in caller sending the XSRF
// header like every other API write: an owner or admin for inbound (the "Try a reply" panel; an owner only for
// numbers of their own businesses), an admin for status. Anyone else: 403, nothing read or written.

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

/**
 * Sandbox only: who may post here. The sandbox key lets anyone holding it act as Twilio would (undefined); otherwise
 * the signed-in caller (with the XSRF pair: a session must not be usable from another site), if `role` allows.
 */
function sandboxCaller(c: Context<AppEnv>, roles: UserRow["role"][]): UserRow | undefined {
  if (c.var.ctx.services.inboundMessages.sandboxKeyMatches(c.req.query("key"))) return undefined;
  const user = c.var.user;
  if (user && roles.includes(user.role) && echoes(getCookie(c, XSRF_COOKIE), c.req.header(XSRF_HEADER))) return user;
  c.var.ctx.logger.warn(`${c.req.method} ${c.req.path}: refused, sandbox webhook without its key or a session`);
  throw new ForbiddenError(SANDBOX_DOOR_CLOSED);
}

/**
 * The form fields of a request Twilio signed, and who simulates it in the sandbox. Throws 403 when Twilio is
 * configured and the signature is wrong, or, in the sandbox, when the caller may not (checked before the body is read).
 */
async function signedParams(c: Context<AppEnv>, sandboxRoles: UserRow["role"][]): Promise<{ params: WebhookParams; actor?: UserRow }> {
  const { services, logger } = c.var.ctx;
  // Twilio signs the URL it was given: the public URL the messenger built the callback on (or, with none set, the
  // address Twilio called).
  const twilio = services.settings.current().twilio;
  if (!twilio) {
    const actor = sandboxCaller(c, sandboxRoles);
    return { params: await formParams(c), ...(actor ? { actor } : {}) };
  }
  const params = await formParams(c);
  const ok = signatureValid(twilio.authToken, publicUrlOf(c), pathWithQuery(c.req.url), params, c.req.header("x-twilio-signature"));
  if (!ok) {
    logger.warn(`${c.req.method} ${c.req.path}: rejected, invalid or missing X-Twilio-Signature`);
    throw new AppError(403, "invalid_signature", INVALID_SIGNATURE);
  }
  return { params };
}

export const webhookRoutes = new Hono<AppEnv>()
  .post("/status", smallBody, async (c) => {
    const { params } = await signedParams(c, ["admin"]);
    await c.var.ctx.services.statusCallbacks.handleTwilioCallback(params, deliveryIdOf(c.req.url), testIdOf(c.req.url));
    return c.body(null, 200);
  })
  .post("/inbound", smallBody, async (c) => {
    const { params, actor } = await signedParams(c, ["admin", "owner"]);
    const { inboundMessages, checklist, inbox } = c.var.ctx.services;
    const { reply } = inboundMessages.handle(params, actor ? { actor } : {});
    // Kept for the inbox (issue 24), after the keywords acted (a STOP shows as "Opted out by their reply").
    inbox.receive(params);
    // Past the signature check: Twilio really reaches this server (the setup checklist's "inbound webhook" line).
    // A reply simulated from the UI says nothing about that.
    if (!actor) checklist.inboundWebhookSeen();
    return c.body(twiml(reply), 200, { "content-type": "text/xml; charset=utf-8" });
  })
  // For the "Try a reply" panel: whether messaging is the sandbox, and (admins only) the inbound URL with its key,
  // for trying replies with curl.
  .get("/Sandbox", requireUser, (c) => {
    const { settings, inboundMessages } = c.var.ctx.services;
    const sandbox = !settings.current().twilio;
    const admin = c.var.user!.role === "admin";
    const inboundUrl = sandbox && admin ? `${publicUrlOf(c)}${INBOUND_WEBHOOK_PATH}?key=${inboundMessages.sandboxKey()}` : null;
    return c.json({ sandbox, inboundUrl });
  });
