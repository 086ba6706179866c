import { createMiddleware } from "hono/factory";
import { DiskFullError } from "../../errors.ts";
import type { AppEnv } from "../types.ts";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * API writes that go through even when the disk is down to its margin (src/lib/disk-space.ts): each writes a few
 * hundred bytes, and the margin is kept free for exactly these.
 * - Login and logout: a person must still get in to read their data and to delete images.
 * - Twilio's webhooks: an opt-out (STOP) must be honoured whatever the disk, and a delivery status is one row.
 * - Deleting an image frees room (the remedy the quota and disk-full messages give).
 */
const ALWAYS_ALLOWED = new Set(["/api/auth/Login", "/api/auth/Logout", "/api/business/DeleteLogo", "/api/business/DeleteSampleImage"]);

/** Whether a request may write when the disk is down to its margin. */
export function writesWhenDiskLow(method: string, path: string): boolean {
  return !WRITES.has(method) || ALWAYS_ALLOWED.has(path) || path.startsWith("/api/webhooks/");
}

/**
 * Refuses API writes with 507 "The server's disk is full" while the data dir's disk has less free room than its
 * margin, before SQLite would fail mid-transaction. Reads, logins and the exceptions above keep working; a write
 * that still hits a full disk is mapped to the same 507 by the error handler.
 */
export const diskSpaceGuard = createMiddleware<AppEnv>(async (c, next) => {
  if (!writesWhenDiskLow(c.req.method, c.req.path) && !c.var.ctx.diskSpace.hasRoomFor(0)) throw new DiskFullError();
  await next();
});
