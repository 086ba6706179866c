import { Hono } from "hono";
import { requireUser } from "../middleware/auth.ts";
import { smallBody } from "../middleware/body-limit.ts";
import { queryId, readJson, requestMeta } from "../request.ts";
import type { AppEnv } from "../types.ts";

// Login required. An owner reaches only customers subscribed to their businesses (anything else answers 404);
// the admin reaches everyone. GetCustomerMessages belongs to the messages feature.
export const customerRoutes = new Hono<AppEnv>()
  .use("*", requireUser)
  .get("/GetAllCustomers", (c) => c.json(c.var.ctx.services.customers.list(c.var.user!)))
  .get("/ListCustomers", (c) => c.json(c.var.ctx.services.customers.page(c.var.user!, c.req.query())))
  .get("/GetCustomerById", (c) => c.json(c.var.ctx.services.customers.get(c.var.user!, queryId(c))))
  .post("/CreateCustomer", smallBody, async (c) => {
    const body = await readJson(c);
    return c.json(c.var.ctx.services.customers.create(c.var.user!, body, requestMeta(c)), 201);
  })
  .put("/UpdateCustomer", smallBody, async (c) => {
    const id = queryId(c);
    const body = await readJson(c);
    return c.json(c.var.ctx.services.customers.update(c.var.user!, id, body, requestMeta(c)));
  })
  .delete("/DeleteCustomer", (c) => {
    c.var.ctx.services.customers.remove(c.var.user!, queryId(c), requestMeta(c));
    return c.json({ message: "Customer deleted." });
  })
  // People the owner removed who asked, on the public page, to subscribe again (pending until accepted/declined).
  .get("/GetSubscriptionRequests", (c) => c.json(c.var.ctx.services.customers.listRequests(c.var.user!)))
  .post("/AcceptSubscriptionRequest", smallBody, async (c) => {
    const body = await readJson(c);
    c.var.ctx.services.customers.acceptRequest(c.var.user!, body, requestMeta(c));
    return c.json({ message: "Request accepted." });
  })
  .post("/DeclineSubscriptionRequest", smallBody, async (c) => {
    const body = await readJson(c);
    c.var.ctx.services.customers.declineRequest(c.var.user!, body, requestMeta(c));
    return c.json({ message: "Request declined." });
  });
