import { createMiddleware } from "hono/factory";
import { ForbiddenError, UnauthorizedError } from "../../errors.ts";
import { SESSION_EXPIRED } from "../../schemas/texts.ts";
import type { AppEnv } from "../types.ts";


/** Resolves the bearer token to a user (or none); guards below decide what that means. */
export const resolveUser = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const token = match?.[1];
  c.set("token", token);
  c.set("user", token ? c.var.ctx.services.auth.authenticate(token) : undefined);
  await next();
});

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user) throw new UnauthorizedError(c.var.token ? SESSION_EXPIRED : "Please log in to continue.");
  await next();
});

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user) throw new UnauthorizedError(c.var.token ? SESSION_EXPIRED : "Please log in to continue.");
  if (c.var.user.role !== "admin") throw new ForbiddenError("Only an administrator can do this.");
  await next();
});
