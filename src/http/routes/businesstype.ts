import { Hono } from "hono";
import { requireAdmin } from "../middleware/auth.ts";
import { smallBody } from "../middleware/body-limit.ts";
import { queryId, readJson } from "../request.ts";
import type { AppEnv } from "../types.ts";

// Reads are public (the business form and public list need the names); writes are the admin's.
export const businessTypeRoutes = new Hono<AppEnv>()
  .get("/GetAllBusinessTypes", (c) => c.json(c.var.ctx.services.businessTypes.list()))
  .get("/ListBusinessTypes", (c) => c.json(c.var.ctx.services.businessTypes.page(c.req.query())))
  .get("/GetBusinessTypeById", (c) => c.json(c.var.ctx.services.businessTypes.get(queryId(c))))
  .post("/CreateBusinessType", requireAdmin, smallBody, async (c) => {
    return c.json(c.var.ctx.services.businessTypes.create(await readJson(c)), 201);
  })
  .put("/UpdateBusinessType", requireAdmin, smallBody, async (c) => {
    const id = queryId(c);
    return c.json(c.var.ctx.services.businessTypes.update(id, await readJson(c)));
  })
  .delete("/DeleteBusinessType", requireAdmin, (c) => {
    c.var.ctx.services.businessTypes.remove(queryId(c));
    return c.json({ message: "Business type deleted." });
  });
