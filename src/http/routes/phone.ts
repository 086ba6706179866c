import { Hono } from "hono";
import { requireUser } from "../middleware/auth.ts";
import { smallBody } from "../middleware/body-limit.ts";
import { readJson } from "../request.ts";
import type { AppEnv } from "../types.ts";

// The caller's own phone, mounted at /api/auth beside UpdateMyPhone: a 6-digit code texted to it, and that code
// typed back (src/services/phone-verification.ts). Only ever the caller's own account.
export const phoneRoutes = new Hono<AppEnv>()
  .post("/SendPhoneCode", requireUser, smallBody, async (c) => c.json(await c.var.ctx.services.phoneVerification.sendCode(c.var.user!)))
  // {code}: the answer is the caller's account, now with phoneVerified.
  .post("/VerifyMyPhone", requireUser, smallBody, async (c) => c.json(c.var.ctx.services.phoneVerification.verify(c.var.user!, await readJson(c))));
