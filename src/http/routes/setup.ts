import { Hono } from "hono";
import { smallBody } from "../middleware/body-limit.ts";
import { readJson } from "../request.ts";
import type { AppEnv } from "../types.ts";

// POST /api/setup: the first-run screen creates the first admin and logs it in (the answer of POST /api/auth/Login);
// 409 once an admin exists. GET /api/site says whether it is due (`setupNeeded`).
export const setupRoutes = new Hono<AppEnv>().post("/", smallBody, async (c) => {
  return c.json(await c.var.ctx.services.auth.setupFirstAdmin(await readJson(c)), 201);
});
