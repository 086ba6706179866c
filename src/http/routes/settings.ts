import { Hono } from "hono";
import { requireAdmin } from "../middleware/auth.ts";
import { smallBody } from "../middleware/body-limit.ts";
import { readJson } from "../request.ts";
import type { AppEnv } from "../types.ts";

// GET/PUT /api/settings: the admin's settings (the service refuses anyone else too). Secrets come back only as
// "set"; the answer is never cached, since it says what this server is configured with.
export const settingsRoutes = new Hono<AppEnv>()
  .get("/", requireAdmin, (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(c.var.ctx.services.settings.view(c.var.user!));
  })
  .put("/", requireAdmin, smallBody, async (c) => {
    const body = await readJson(c);
    c.header("Cache-Control", "no-store");
    return c.json(c.var.ctx.services.settings.update(c.var.user!, body));
  });
