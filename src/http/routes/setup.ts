import { Hono } from "hono";
import { smallBody } from "../middleware/body-limit.ts";
import { clientIp, readJson } from "../request.ts";
import type { AppEnv } from "../types.ts";

// POST /api/setup: the first-run screen creates the first admin and logs it in (the answer of POST /api/auth/Login);
// 409 once an admin exists, 403 without the setup code serve printed (setup-code.ts), which is spent, with the public
// URL the screen sends saved, in the transaction that creates the admin. GET /api/site says whether it is due.
export const setupRoutes = new Hono<AppEnv>().post("/", smallBody, async (c) => {
  const body = await readJson(c);
  const { setupCode, auth } = c.var.ctx.services;
  const spendCode = setupCode.admit(body, clientIp(c));
  return c.json(await auth.setupFirstAdmin(body, spendCode), 201);
});
