import { Hono } from "hono";
import { requireAdmin } from "../middleware/auth.ts";
import { requestOrigin } from "../request.ts";
import type { AppEnv } from "../types.ts";

// GET /api/settings/Checklist (admin): the setup checklist of the admin's home page, the lines `nearcast doctor`
// prints. Mounted beside the settings routes at /api/settings.
export const checklistRoutes = new Hono<AppEnv>().get("/Checklist", requireAdmin, async (c) => {
  c.header("Cache-Control", "no-store");
  return c.json({ items: await c.var.ctx.services.checklist.items(c.var.user!, requestOrigin(c)) });
});
