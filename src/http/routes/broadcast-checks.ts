import { Hono } from "hono";
import { BROADCAST_IMAGE_TOO_LARGE } from "../../schemas/texts.ts";
import { requireUser } from "../middleware/auth.ts";
import { imageBody, smallBody } from "../middleware/body-limit.ts";
import { queryId, readJson } from "../request.ts";
import type { AppEnv } from "../types.ts";
import { type EstimateBody, testSendSchema } from "../../schemas/broadcast-input.ts";
import { readForm } from "./broadcast-form.ts";

// Before a broadcast goes out (issue 11, item 6), mounted at /api/broadcast: a test to the owner's own phone, and the
// estimate the confirm step shows. Neither writes a broadcast. Another owner's business answers 404.

export const broadcastCheckRoutes = new Hono<AppEnv>()
  // Multipart (or form-urlencoded) like PublishMessageToAllCustomers, with the same body cap and image checks.
  .post("/SendTest", requireUser, imageBody(BROADCAST_IMAGE_TOO_LARGE), async (c) => {
    const result = await c.var.ctx.services.testSend.send(c.var.user!, await readForm(c, testSendSchema));
    return c.json(result, 200);
  })
  // What became of a test (issue 23 item 6): Sending, Sent, Delivered or Failed with the reason. The caller's own.
  .get("/TestStatus", requireUser, (c) => c.json(c.var.ctx.services.testOutcome.status(c.var.user!, queryId(c))))
  // What is left this hour of the signed-in account's budget for texts nobody broadcast, and of the install's.
  .get("/TextBudget", requireUser, (c) => c.json(c.var.ctx.services.textBudget.left(c.var.user!.id)))
  // JSON {businessId, messageText, hasImage, withTemplate}: the text stays out of URLs and access logs. The
  // service checks the object against estimateSchema.
  .post("/Estimate", requireUser, smallBody, async (c) =>
    c.json(await c.var.ctx.services.broadcastEstimate.estimate(c.var.user!, (await readJson(c)) as EstimateBody)),
  );
