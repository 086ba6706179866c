import { Hono } from "hono";
import { requireUser } from "../middleware/auth.ts";
import { smallBody } from "../middleware/body-limit.ts";
import { readJson } from "../request.ts";
import type { AppEnv } from "../types.ts";

// POST /api/settings/TestEmail {to?}: the Settings screen's "Send test email" (admin only; the service says 403).
// It waits for the SMTP server's answer (at most its 10 s timeout) so the admin learns at once whether email works.
export const settingsMailRoutes = new Hono<AppEnv>().post("/TestEmail", requireUser, smallBody, async (c) => {
  const body = c.req.header("content-type") ? await readJson(c) : {};
  return c.json(await c.var.ctx.services.email.sendTest(c.var.user!, body));
});
