import { timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { AppError } from "../../errors.ts";
import { randomToken } from "../../lib/tokens.ts";
import { SHORT_LINK_PREFIX } from "../../schemas/tracked-text.ts";
import type { AppEnv } from "../types.ts";

export const XSRF_COOKIE = "XSRF-TOKEN";
export const XSRF_HEADER = "X-XSRF-TOKEN";
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether the header echoes the cookie, compared in constant time. */
export function echoes(cookie: string | undefined, header: string | undefined): boolean {
  if (!cookie || !header) return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(header);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Double-submit cookie: every response hands out a readable XSRF-TOKEN cookie, and an unsafe API call must echo
 * it in X-XSRF-TOKEN (a server-rendered form, in its hidden field: formEchoesCookie). Another site can neither read the
 * cookie nor set the header. Twilio's webhooks are left alone
 * (no check, no cookie): Twilio sends neither, and they are checked by signature. So are short links (/l/<code>):
 * a redirect that changes nothing a person owns, followed from a text message, must not hand out a cookie.
 */
export const xsrf = createMiddleware<AppEnv>(async (c, next) => {
  const path = c.req.path;
  if (path.startsWith("/api/webhooks/") || path.startsWith(SHORT_LINK_PREFIX)) return next();
  const cookie = getCookie(c, XSRF_COOKIE);
  if (!SAFE.has(c.req.method) && path.startsWith("/api/") && !echoes(cookie, c.req.header(XSRF_HEADER))) {
    throw new AppError(403, "xsrf_failed", "Your session token is missing or out of date. Reload the page and try again.");
  }
  const token = cookie ?? randomToken();
  c.set("xsrfToken", token);
  await next();
  if (!cookie) {
    setCookie(c, XSRF_COOKIE, token, { path: "/", sameSite: "Strict", secure: isHttps(c) });
  }
});

/** For a plain HTML form post (no JavaScript to set the header): the form's hidden field must echo the cookie. */
export function formEchoesCookie(c: Context<AppEnv>, field: unknown): boolean {
  return typeof field === "string" && echoes(getCookie(c, XSRF_COOKIE), field);
}

/** Whether the browser talks HTTPS to us: directly, or to the trusted proxy in front (which terminates TLS). */
export function isHttps(c: Context<AppEnv>): boolean {
  if (c.req.url.startsWith("https:")) return true;
  if (!c.var.ctx.config.trustProxy) return false;
  return c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https";
}
