import { Hono } from "hono";
import { smallBody } from "../middleware/body-limit.ts";
import { readJson, requestMeta } from "../request.ts";
import type { AppEnv } from "../types.ts";

// The public endpoint behind the QR code: {businessId, phone, contactPreference, source?} -> {message}. No login; the
// XSRF check, security headers and error shape come from the app's middleware like on every other route. Rate
// limit, validation, E.164 and the writes are the service's.
export const subscriptionRoutes = new Hono<AppEnv>().post("/Subscribe", smallBody, async (c) =>
  c.json(c.var.ctx.services.subscriptions.subscribe(await readJson(c), requestMeta(c))),
);
