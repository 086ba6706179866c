import { Hono } from "hono";
import type { AppEnv } from "../types.ts";

/** 200 with {status: "ok", version, database, dispatcher}; 503 with status "error" when either is broken. */
export const healthRoutes = new Hono<AppEnv>().get("/", (c) => {
  const report = c.var.ctx.services.health.check();
  return c.json(report, report.status === "ok" ? 200 : 503);
});
