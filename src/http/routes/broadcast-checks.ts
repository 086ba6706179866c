import { Hono } from "hono";
import { BROADCAST_IMAGE_TOO_LARGE } from "../../schemas/texts.ts";
import { requireUser } from "../middleware/auth.ts";
import { imageBody, smallBody } from "../middleware/body-limit.ts";
import { readJson } from "../request.ts";
import type { AppEnv } from "../types.ts";
import { BUSINESS_ID, first, IMAGE, imageOf, MESSAGE_TEXT, readForm, textOf } from "./broadcast.ts";

// Before a broadcast goes out (issue 11, item 6), mounted at /api/broadcast: a test to the owner's own phone, and the
// estimate the confirm step shows. Neither writes a broadcast. Another owner's business answers 404.

const CHANNEL = ["Channel", "channel"];
/** An image already uploaded (its /uploads/ path), instead of sending the file again. */
const IMAGE_PATH = ["ImagePath", "imagePath"];
const TEST_FIELDS = new Set([...BUSINESS_ID, ...MESSAGE_TEXT, ...IMAGE, ...CHANNEL, ...IMAGE_PATH]);

export const broadcastCheckRoutes = new Hono<AppEnv>()
  // Multipart (or form-urlencoded) like PublishMessageToAllCustomers, with the same body cap and image checks.
  .post("/SendTest", requireUser, imageBody(BROADCAST_IMAGE_TOO_LARGE), async (c) => {
    const form = await readForm(c, TEST_FIELDS);
    const result = await c.var.ctx.services.testSend.send(c.var.user!, {
      businessId: textOf(first(form, BUSINESS_ID)),
      messageText: textOf(first(form, MESSAGE_TEXT)),
      channel: textOf(first(form, CHANNEL)),
      image: imageOf(first(form, IMAGE)),
      imagePath: textOf(first(form, IMAGE_PATH)),
    });
    return c.json(result, 200);
  })
  // What is left this hour of the signed-in account's budget for texts nobody broadcast, and of the install's.
  .get("/TextBudget", requireUser, (c) => c.json(c.var.ctx.services.textBudget.left(c.var.user!.id)))
  // JSON {businessId, messageText, hasImage}: the text stays out of URLs and access logs.
  .post("/Estimate", requireUser, smallBody, async (c) => {
    const body = (await readJson(c)) as Record<string, unknown> | null;
    const input = body && typeof body === "object" ? body : {};
    return c.json(await c.var.ctx.services.broadcastEstimate.estimate(c.var.user!, { businessId: input.businessId, messageText: input.messageText, hasImage: input.hasImage, withTemplate: input.withTemplate }));
  });
