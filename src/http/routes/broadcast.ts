import { type Context, Hono } from "hono";
import { PayloadTooLargeError, ValidationError } from "../../errors.ts";
import { MAX_IMAGE_BYTES } from "../../schemas/images.ts";
import { BROADCAST_IMAGE_TOO_LARGE, BROADCAST_INVALID_IMAGE } from "../../schemas/texts.ts";
import { requireUser } from "../middleware/auth.ts";
import { imageBody } from "../middleware/body-limit.ts";
import { multipartBoundary, multipartParts, partBytes, partText } from "../multipart.ts";
import { queryId } from "../request.ts";
import type { AppEnv } from "../types.ts";

// The broadcast calls, mounted at /api/business next to the business routes: publish (spec section 7) and the
// progress reads the broadcast screen shows. Publishing for another owner's business answers 403 (spec section 6);
// the reads answer 404 for anything the caller does not own, like every other read.

const NOT_A_FORM =
  "Send the broadcast as multipart/form-data with BusinessId, MessageText, an optional Image, an optional Confirm, an optional ScheduledFor and an optional ContentSid with ContentVariables.";

// The spec names the fields BusinessId/MessageText/Image; the form sends businessId/messageText/image. Where both
// come, the spec's name wins.
export const BUSINESS_ID = ["BusinessId", "businessId"];
export const MESSAGE_TEXT = ["MessageText", "messageText"];
export const IMAGE = ["Image", "image"];
/** Confirm=true: send although the same text went to the business within 10 minutes (otherwise 409). */
const CONFIRM = ["Confirm", "confirm"];
/** ScheduledFor (ISO 8601 with offset): start then instead of now. */
const SCHEDULED_FOR = ["ScheduledFor", "scheduledFor"];
/** Editing or cancelling a scheduled broadcast names it. */
const BROADCAST_ID = ["BroadcastId", "broadcastId"];
/** A WhatsApp template (HX…) for the WhatsApp recipients, and its variables as JSON object text. */
const CONTENT_SID = ["ContentSid", "contentSid"];
const CONTENT_VARIABLES = ["ContentVariables", "contentVariables"];
const WANTED = new Set([...BUSINESS_ID, ...MESSAGE_TEXT, ...IMAGE, ...CONFIRM, ...SCHEDULED_FOR, ...BROADCAST_ID, ...CONTENT_SID, ...CONTENT_VARIABLES]);

/** A form field as Request.formData() tells them apart: text, or a file (bytes null: larger than MAX_IMAGE_BYTES). */
type FieldValue = { text: string } | { filename: string; bytes: Uint8Array | null };

/**
 * The first value of each wanted field, in one pass over the body: multipart (the file read as it arrives and cut off
 * past 5 MB) or, without an image, form-urlencoded.
 */
export async function readForm(c: Context<AppEnv>, wanted: ReadonlySet<string> = WANTED): Promise<Map<string, FieldValue>> {
  const fields = new Map<string, FieldValue>();
  const type = c.req.header("content-type") ?? "";
  if (/^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    for (const [name, text] of new URLSearchParams(await c.req.text())) if (!fields.has(name)) fields.set(name, { text });
    return fields;
  }
  const boundary = multipartBoundary(type);
  const body = c.req.raw.body;
  if (!boundary || !body) throw new ValidationError(NOT_A_FORM);
  for await (const part of multipartParts(body, boundary, NOT_A_FORM)) {
    const { name, filename, content } = part;
    if (name === null || !wanted.has(name) || fields.has(name)) continue;
    if (filename === null) fields.set(name, { text: await partText(content) });
    // The image is read as it arrives and dropped past 5 MB; a file where text belongs is never read.
    else fields.set(name, { filename, bytes: IMAGE.includes(name) ? await partBytes(content, MAX_IMAGE_BYTES) : null });
  }
  return fields;
}

export function first(fields: Map<string, FieldValue>, names: string[]): FieldValue | undefined {
  for (const name of names) {
    const value = fields.get(name);
    if (value) return value;
  }
  return undefined;
}

/** The text of a field; a file where text belongs counts as missing. */
export function textOf(value: FieldValue | undefined): string | undefined {
  return value && "text" in value ? value.text : undefined;
}

export function imageOf(value: FieldValue | undefined): Uint8Array | null {
  if (!value) return null;
  if ("text" in value) {
    // A text field named Image: nothing chosen when empty, otherwise not an image file.
    if (value.text === "") return null;
    throw new ValidationError(BROADCAST_INVALID_IMAGE, { Image: BROADCAST_INVALID_IMAGE });
  }
  if (value.bytes === null) throw new PayloadTooLargeError(BROADCAST_IMAGE_TOO_LARGE);
  // A file input left empty sends a nameless, empty part; an empty file that was chosen is not an image.
  if (value.bytes.length === 0 && !value.filename) return null;
  if (value.bytes.length === 0) throw new ValidationError(BROADCAST_INVALID_IMAGE, { Image: BROADCAST_INVALID_IMAGE });
  return value.bytes;
}

/** The Confirm (or ScheduledFor) field's text for the service to check; a file there is not valid. */
function confirmOf(value: FieldValue | undefined): string | undefined {
  if (!value) return undefined;
  return "text" in value ? value.text : "file";
}

export const broadcastRoutes = new Hono<AppEnv>()
  .post("/PublishMessageToAllCustomers", requireUser, imageBody(BROADCAST_IMAGE_TOO_LARGE), async (c) => {
    const form = await readForm(c);
    const result = await c.var.ctx.services.broadcasts.publish(c.var.user!, {
      businessId: textOf(first(form, BUSINESS_ID)),
      messageText: textOf(first(form, MESSAGE_TEXT)),
      image: imageOf(first(form, IMAGE)),
      confirm: confirmOf(first(form, CONFIRM)),
      scheduledFor: confirmOf(first(form, SCHEDULED_FOR)),
      contentSid: confirmOf(first(form, CONTENT_SID)),
      contentVariables: confirmOf(first(form, CONTENT_VARIABLES)),
    });
    return c.json(result, 200);
  })
  // Until a scheduled broadcast starts: a new text, time and/or WhatsApp template (multipart or form-urlencoded:
  // BroadcastId, MessageText?, ScheduledFor?, ContentSid? with ContentVariables?; ContentSid "" drops it), or cancel it (BroadcastId, in the form or as ?broadcastId=).
  .post("/UpdateScheduledBroadcast", requireUser, async (c) => {
    const form = await readForm(c);
    const summary = await c.var.ctx.services.broadcasts.updateScheduled(c.var.user!, {
      broadcastId: textOf(first(form, BROADCAST_ID)),
      messageText: textOf(first(form, MESSAGE_TEXT)),
      scheduledFor: confirmOf(first(form, SCHEDULED_FOR)),
      contentSid: confirmOf(first(form, CONTENT_SID)),
      contentVariables: confirmOf(first(form, CONTENT_VARIABLES)),
    });
    return c.json({ message: "Scheduled broadcast updated.", broadcast: summary }, 200);
  })
  .post("/CancelBroadcast", requireUser, async (c) => {
    const queried = c.req.query("broadcastId") ?? c.req.query("BroadcastId");
    const id = queried ?? (c.req.header("content-type") ? textOf(first(await readForm(c), BROADCAST_ID)) : undefined);
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
  .post("/RetryFailedDeliveries", requireUser, (c) =>
    c.json(c.var.ctx.services.broadcasts.retryFailed(c.var.user!, queryId(c, "broadcastId"))),
  );
