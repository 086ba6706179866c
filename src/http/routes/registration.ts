import { Hono } from "hono";
import { requireUser } from "../middleware/auth.ts";
import { queryId } from "../request.ts";
import type { AppEnv } from "../types.ts";

// The carrier registration kit of a business (issue 23), mounted at /api/business: the owner of the business or an
// admin; another owner's id answers 404 like every business route. Always 200 with `problems` (a kit with missing
// URLs is still worth copying from: the owner sees what is missing beside what is ready).
export const registrationRoutes = new Hono<AppEnv>().get("/GetRegistrationKit", requireUser, (c) => {
  c.header("Cache-Control", "no-store");
  return c.json(c.var.ctx.services.registration.kit(c.var.user!, queryId(c)));
});
