import { timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { AppError } from "../../errors.ts";
import { randomToken } from "../../lib/tokens.ts";
import type { AppEnv } from "../types.ts";

export const XSRF_COOKIE = "XSRF-TOKEN";
export const XSRF_HEADER = "X-XSRF-TOKEN";
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Double-submit cookie: every response hands out a readable XSRF-TOKEN cookie, and an unsafe API call must echo
 * it in X-XSRF-TOKEN. Another site can neither read the cookie nor set the header. Webhooks are exempt
 * (Twilio sends neither; they are checked by signature).
 */
export const xsrf = createMiddleware<AppEnv>(async (c, next) => {
  const cookie = getCookie(c, XSRF_COOKIE);
  const path = c.req.path;
  if (!SAFE.has(c.req.method) && path.startsWith("/api/") && !path.startsWith("/api/webhooks/")) {
    const header = c.req.header(XSRF_HEADER);
    if (!cookie || !header || !same(cookie, header)) {
      throw new AppError(403, "xsrf_failed", "Your session token is missing or out of date. Reload the page and try again.");
    }
  }
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
