import { type Context, Hono } from "hono";
import type { RequestMeta } from "../../services/subscriptions.ts";
import { clientIp, readJson } from "../request.ts";
import type { AppEnv } from "../types.ts";

/** Where a request came from, as recorded with consent. */
export function requestMeta(c: Context<AppEnv>): RequestMeta {
  const userAgent = c.req.header("user-agent")?.slice(0, 500) ?? null;
  return { ip: clientIp(c), userAgent };
}

// Public: the page behind the QR code. {businessId, phone, contactPreference, source?} -> {message}.
export const subscriptionRoutes = new Hono<AppEnv>().post("/Subscribe", async (c) => {
  const body = await readJson(c);
  return c.json(await c.var.ctx.services.subscriptions.subscribe(body, requestMeta(c)));
});
