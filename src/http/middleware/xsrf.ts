import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { parse as parseCookie } from "hono/utils/cookie";
import { AppError } from "../../errors.ts";
import { randomToken } from "../../lib/tokens.ts";
import type { AppEnv } from "../types.ts";

export const XSRF_COOKIE = "XSRF-TOKEN";
export const XSRF_HEADER = "X-XSRF-TOKEN";
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** Equal strings, compared without an early exit (like crypto.timingSafeEqual, without two Buffer copies per call). */
function same(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Whether a request method/path must carry the double-submit pair: unsafe methods on the API, webhooks aside. */
export function xsrfChecked(method: string, path: string): boolean {
  return !SAFE.has(method) && path.startsWith("/api/") && !path.startsWith("/api/webhooks/");
}

/**
 * The double-submit check itself, on the raw Cookie header and X-XSRF-TOKEN value (the middleware below and the
 * routes Bun.serve answers directly both use it): throws the 403 unless the cookie is there and the header echoes it.
 */
export function checkXsrf(cookieHeader: string | null | undefined, headerToken: string | null | undefined): void {
  const cookie = cookieHeader ? parseCookie(cookieHeader, XSRF_COOKIE)[XSRF_COOKIE] : undefined;
  if (!cookie || !headerToken || !same(cookie, headerToken)) {
    throw new AppError(403, "xsrf_failed", "Your session token is missing or out of date. Reload the page and try again.");
  }
}

/**
 * Double-submit cookie: every response hands out a readable XSRF-TOKEN cookie, and an unsafe API call must echo
 * it in X-XSRF-TOKEN. Another site can neither read the cookie nor set the header. Webhooks are exempt
 * (Twilio sends neither; they are checked by signature).
 */
export const xsrf = createMiddleware<AppEnv>(async (c, next) => {
  const cookie = getCookie(c, XSRF_COOKIE);
  if (xsrfChecked(c.req.method, c.req.path)) checkXsrf(c.req.header("cookie"), c.req.header(XSRF_HEADER));
  await next();
  if (!cookie) {
    setCookie(c, XSRF_COOKIE, randomToken(), { path: "/", sameSite: "Strict", secure: isHttps(c) });
  }
});

/** Whether the browser talks HTTPS to us: directly, or to the trusted proxy in front (which terminates TLS). */
function isHttps(c: Context<AppEnv>): boolean {
  if (c.req.url.startsWith("https:")) return true;
  if (!c.var.ctx.config.trustProxy) return false;
  return c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https";
}
