import { Hono } from "hono";
import { requireUser } from "../middleware/auth.ts";
import { queryId } from "../request.ts";
import type { AppEnv } from "../types.ts";

// Mounted at /api/customer next to the customer routes. Login required; tenancy in services.customerMessages.
export const customerMessageRoutes = new Hono<AppEnv>()
  .get("/GetCustomerMessages", requireUser, (c) => c.json(c.var.ctx.services.customerMessages.list(c.var.user!, queryId(c, "customerId"))))
  .get("/ListCustomerMessages", requireUser, (c) =>
    c.json(c.var.ctx.services.customerMessages.page(c.var.user!, queryId(c, "customerId"), c.req.query())),
  );
