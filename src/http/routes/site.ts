import { Hono } from "hono";
import { requestOrigin } from "../request.ts";
import type { AppEnv } from "../types.ts";

// GET /api/site: public facts every page may need before anyone logs in (brand, contact, the public URL the links
// and QR codes use, whether first-run setup is due). Never a secret.
export const siteRoutes = new Hono<AppEnv>().get("/", (c) => {
  c.header("Cache-Control", "no-store");
  return c.json(c.var.ctx.services.settings.site(requestOrigin(c)));
});
