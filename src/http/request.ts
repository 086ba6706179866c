import type { Context } from "hono";
import { AppError, ValidationError } from "../errors.ts";
import { ID_TEXT } from "../schemas/ids.ts";
import type { RequestMeta } from "../services/subscriptions.ts";
import type { AppEnv } from "./types.ts";

/** A JSON object body, or a 4xx naming what is wrong with it: 415 for another type, 400 for anything but an object. */
export async function readJson(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  // application/json, optionally with parameters (not "application/jsonp" or the like).
  if (!/^application\/json\s*(;|$)/i.test((c.req.header("content-type") ?? "").trim())) {
    throw new AppError(415, "unsupported_media_type", "Content-Type must be application/json.");
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ValidationError("Request body must be valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ValidationError("Request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

/** A positive integer query parameter such as ?id=12. */
export function queryId(c: Context<AppEnv>, name = "id"): number {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") throw new ValidationError(`The ${name} parameter is required.`, { [name]: "required" });
  // As sent: a query parameter with spaces around the digits is not an id (parseIdText would trim them).
  if (!ID_TEXT.test(raw)) throw new ValidationError(`The ${name} parameter must be a positive whole number.`, { [name]: "invalid" });
  return Number(raw);
}

/**
 * The address rate limits are keyed on. Behind a trusted proxy it is the LAST X-Forwarded-For entry: the one the
 * proxy itself appended. Earlier entries come from the client and are free text, so keying on the first one
 * would let anybody dodge the per-IP limits by sending a new made-up address each time.
 */
export function clientIp(c: Context<AppEnv>): string {
  if (c.var.ctx.config.trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return c.var.peer ?? "unknown";
}

/**
 * The origin this request came in on (scheme, host and port), the public URL's last fallback. Behind a trusted proxy
 * it is the one the proxy was asked for (X-Forwarded-Proto and X-Forwarded-Host); otherwise the URL's own.
 */
export function requestOrigin(c: Context<AppEnv>): string {
  const url = new URL(c.req.url);
  if (c.var.ctx.config.trustProxy) {
    const proto = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
    const host = c.req.header("x-forwarded-host")?.split(",")[0]?.trim();
    if (proto === "http" || proto === "https") url.protocol = `${proto}:`;
    if (host && /^[A-Za-z0-9.\-[\]:]+$/.test(host)) url.host = host;
  }
  return url.origin;
}

/** The base of every link this request gets back: the public URL, or this request's origin when none is set. */
export function publicUrlOf(c: Context<AppEnv>): string {
  return c.var.ctx.services.settings.publicUrl(requestOrigin(c));
}

/** Where a request came from, as recorded with consent (the user agent capped). */
export function requestMeta(c: Context<AppEnv>): RequestMeta {
  return { ip: clientIp(c), userAgent: c.req.header("user-agent")?.slice(0, 500) ?? null };
}
