import { Hono } from "hono";
import { requireAdmin } from "../middleware/auth.ts";
import { smallBody } from "../middleware/body-limit.ts";
import { queryId } from "../request.ts";
import type { AppEnv } from "../types.ts";

// The admin's Users screen and the home page's pending owners (src/services/owner-approval.ts), in the spec's style:
// admin only (403 for owners), 404 for an unknown id, 409 for the admin's own account or the last admin.
export const userRoutes = new Hono<AppEnv>()
  .get("/GetAllUsers", requireAdmin, (c) => c.json(c.var.ctx.services.ownerApproval.list(c.var.user!)))
  .get("/GetPendingUsers", requireAdmin, (c) => c.json(c.var.ctx.services.ownerApproval.pending(c.var.user!)))
  .post("/ApproveUser", requireAdmin, smallBody, (c) => c.json(c.var.ctx.services.ownerApproval.approve(c.var.user!, queryId(c))))
  .post("/RefuseUser", requireAdmin, smallBody, (c) => c.json(c.var.ctx.services.ownerApproval.refuse(c.var.user!, queryId(c))))
  .delete("/DeleteUser", requireAdmin, smallBody, (c) => c.json(c.var.ctx.services.ownerApproval.remove(c.var.user!, queryId(c))));
