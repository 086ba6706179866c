import { Hono } from "hono";
import { requireUser } from "../middleware/auth.ts";
import { smallBody } from "../middleware/body-limit.ts";
import { readJson } from "../request.ts";
import type { AppEnv } from "../types.ts";

// Coupons at the counter (issue 25), mounted at /api/coupon. Login required; the owner's own codes only (another
// owner's is unknown: services.coupons). The answer's status is the outcome's: 200, 409 used, 410 expired.
const FORM = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

export const couponRoutes = new Hono<AppEnv>().post("/Redeem", smallBody, requireUser, async (c) => {
  let body: Record<string, unknown>;
  if (FORM.test(c.req.header("content-type") ?? "")) {
    const form = await c.req.formData();
    const text = (name: string) => {
      const value = form.get(name) ?? form.get(name.charAt(0).toUpperCase() + name.slice(1));
      return typeof value === "string" ? value : undefined;
    };
    body = { code: text("code"), phone: text("phone") };
  } else {
    body = await readJson(c);
  }
  const outcome = c.var.ctx.services.coupons.redeem(c.var.user!, body);
  return c.json(outcome.body, outcome.status);
});
