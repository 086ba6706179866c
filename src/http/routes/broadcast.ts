import { type Context, Hono } from "hono";
import * as v from "valibot";
import { publishSchema, scheduleUpdateSchema } from "../../schemas/broadcast-input.ts";
import { BROADCAST_IMAGE_TOO_LARGE } from "../../schemas/texts.ts";
import { requireUser } from "../middleware/auth.ts";
import { imageBody } from "../middleware/body-limit.ts";
import { queryId } from "../request.ts";
import type { AppEnv } from "../types.ts";
import { readForm } from "./broadcast-form.ts";

// The broadcast calls, mounted at /api/business next to the business routes: publish (spec section 7) and the
// progress reads the broadcast screen shows. Publishing for another owner's business answers 403 (spec section 6);
// the reads answer 404 for anything the caller does not own, like every other read. The forms' fields are the keys
// of the schemas (broadcast-form.ts).

const cancelSchema = v.pick(scheduleUpdateSchema, ["broadcastId"]);

/** A CSV the browser saves as `name`. */
const csvFile = (c: Context<AppEnv>, csv: string, name: string) =>
  c.body(csv, 200, { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${name}"` });

export const broadcastRoutes = new Hono<AppEnv>()
  .post("/PublishMessageToAllCustomers", requireUser, imageBody(BROADCAST_IMAGE_TOO_LARGE), async (c) => {
    const result = await c.var.ctx.services.broadcasts.publish(c.var.user!, await readForm(c, publishSchema));
    return c.json(result, 200);
  })
  // Until a scheduled broadcast starts: a new text, time and/or WhatsApp template (multipart or form-urlencoded:
  // BroadcastId, MessageText?, ScheduledFor?, ContentSid? with ContentVariables?; ContentSid "" drops it), or cancel it (BroadcastId, in the form or as ?broadcastId=).
  .post("/UpdateScheduledBroadcast", requireUser, async (c) => {
    const summary = await c.var.ctx.services.broadcasts.updateScheduled(c.var.user!, await readForm(c, scheduleUpdateSchema));
    return c.json({ message: "Scheduled broadcast updated.", broadcast: summary }, 200);
  })
  .post("/CancelBroadcast", requireUser, async (c) => {
    const queried = c.req.query("broadcastId") ?? c.req.query("BroadcastId");
    const id = queried ?? (c.req.header("content-type") ? (await readForm(c, cancelSchema)).broadcastId : undefined);
    return c.json(c.var.ctx.services.broadcasts.cancel(c.var.user!, id), 200);
  })
  // The account's WhatsApp templates with their approval (the sandbox's demo ones without Twilio); 502 when Twilio
  // cannot be asked.
  .get("/WhatsAppTemplates", requireUser, async (c) => c.json(await c.var.ctx.services.broadcasts.whatsappTemplates()))
  // Who on WhatsApp a broadcast of the business would reach now and who it would skip, before sending.
  .get("/WhatsAppAudience", requireUser, async (c) =>
    c.json(await c.var.ctx.services.broadcasts.whatsappAudience(c.var.user!, queryId(c, "businessId"))),
  )
  .get("/GetSubscriberCount", requireUser, (c) =>
    c.json(c.var.ctx.services.broadcasts.subscriberCount(c.var.user!, queryId(c, "businessId"))),
  )
  .get("/GetBroadcasts", requireUser, (c) => c.json(c.var.ctx.services.broadcasts.list(c.var.user!, queryId(c, "businessId"))))
  .get("/ListBroadcasts", requireUser, (c) =>
    c.json(c.var.ctx.services.broadcasts.page(c.var.user!, queryId(c, "businessId"), c.req.query())),
  )
  .get("/GetBroadcastStatus", requireUser, (c) => c.json(c.var.ctx.services.broadcasts.status(c.var.user!, queryId(c))))
  // One CSV line per recipient: phone, channel, status (Skipped, Cancelled and Failed apart), reason, sent_at.
  .get("/BroadcastReport", requireUser, (c) => {
    const { broadcastId, csv } = c.var.ctx.services.broadcasts.reportCsv(c.var.user!, queryId(c));
    return csvFile(c, csv, `broadcast-${broadcastId}.csv`);
  })
  // What the broadcast brought in (issue 25): its numbers, and one CSV line per recipient with their clicks and coupon.
  .get("/GetBroadcastResults", requireUser, (c) => c.json(c.var.ctx.services.broadcasts.results(c.var.user!, queryId(c))))
  .get("/ExportBroadcastResults", requireUser, (c) => {
    const { broadcastId, csv } = c.var.ctx.services.broadcasts.resultsCsv(c.var.user!, queryId(c));
    return csvFile(c, csv, `broadcast-${broadcastId}-results.csv`);
  })
  .get("/GetBusinessDashboard", requireUser, (c) => c.json(c.var.ctx.services.broadcasts.dashboard(c.var.user!, queryId(c))))
  .post("/RetryFailedDeliveries", requireUser, (c) =>
    c.json(c.var.ctx.services.broadcasts.retryFailed(c.var.user!, queryId(c, "broadcastId"))),
  );
