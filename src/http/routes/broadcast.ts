import { type Context, Hono } from "hono";
import { PayloadTooLargeError, ValidationError } from "../../errors.ts";
import { BROADCAST_IMAGE_TOO_LARGE, BROADCAST_INVALID_IMAGE } from "../../services/broadcasts.ts";
import { MAX_IMAGE_BYTES } from "../../services/uploads.ts";
import { requireUser } from "../middleware/auth.ts";
import { MULTIPART_OVERHEAD } from "../multipart.ts";
import { queryId } from "../request.ts";
import type { AppEnv } from "../types.ts";

// The broadcast calls, mounted at /api/business next to the business routes: publish (spec section 7) and the
// progress reads the broadcast screen shows. Publishing for another owner's business answers 403 (spec section 6);
// the reads answer 404 for anything the caller does not own, like every other read.

/** Exempt from the global JSON body limit: the publish body carries an image of up to 5 MB. */
export const BROADCAST_UPLOAD_PATHS = ["/api/business/PublishMessageToAllCustomers"];

/** The image plus the text fields and multipart framing. */
const PUBLISH_BODY_LIMIT = MAX_IMAGE_BYTES + MULTIPART_OVERHEAD;

const NOT_A_FORM = "Send the broadcast as multipart/form-data with BusinessId, MessageText and an optional Image.";

/** The whole body, refused with the spec's 413 text as soon as it grows past `max`. */
async function readCapped(body: ReadableStream<Uint8Array> | null, max: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > max) throw new PayloadTooLargeError(BROADCAST_IMAGE_TOO_LARGE);
      parts.push(value);
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(parts, size);
}

/** The first of the names present (the spec names the fields BusinessId/MessageText/Image; the form sends messageText). */
function field(form: FormData, ...names: string[]): FormDataEntryValue | null {
  for (const n of names) {
    const v = form.get(n);
    if (v !== null) return v;
  }
  return null;
}

async function readForm(c: Context<AppEnv>): Promise<FormData> {
  const type = c.req.header("content-type") ?? "";
  if (!/^\s*(multipart\/form-data|application\/x-www-form-urlencoded)\s*(;|$)/i.test(type)) {
    throw new ValidationError(NOT_A_FORM);
  }
  const declared = Number(c.req.header("content-length") ?? "");
  if (Number.isFinite(declared) && declared > PUBLISH_BODY_LIMIT) throw new PayloadTooLargeError(BROADCAST_IMAGE_TOO_LARGE);
  const bytes = await readCapped(c.req.raw.body, PUBLISH_BODY_LIMIT);
  try {
    return await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw new ValidationError(NOT_A_FORM);
  }
}

async function imageBytes(value: FormDataEntryValue | null): Promise<Uint8Array | null> {
  if (value === null) return null;
  if (typeof value === "string") {
    // A text field named Image: nothing chosen when empty, otherwise not an image file.
    if (value === "") return null;
    throw new ValidationError(BROADCAST_INVALID_IMAGE, { Image: BROADCAST_INVALID_IMAGE });
  }
  // A file input left empty sends a nameless, empty part; an empty file that was chosen is not an image.
  if (value.size === 0 && !value.name) return null;
  if (value.size === 0) throw new ValidationError(BROADCAST_INVALID_IMAGE, { Image: BROADCAST_INVALID_IMAGE });
  if (value.size > MAX_IMAGE_BYTES) throw new PayloadTooLargeError(BROADCAST_IMAGE_TOO_LARGE);
  return new Uint8Array(await value.arrayBuffer());
}

export const broadcastRoutes = new Hono<AppEnv>()
  .post("/PublishMessageToAllCustomers", requireUser, async (c) => {
    const form = await readForm(c);
    const text = (v: FormDataEntryValue | null) => (typeof v === "string" ? v : undefined);
    const result = await c.var.ctx.services.broadcasts.publish(c.var.user!, {
      businessId: text(field(form, "BusinessId", "businessId")),
      messageText: text(field(form, "MessageText", "messageText")),
      image: await imageBytes(field(form, "Image", "image")),
    });
    return c.json(result, 200);
  })
  .get("/GetSubscriberCount", requireUser, (c) =>
    c.json(c.var.ctx.services.broadcasts.subscriberCount(c.var.user!, queryId(c, "businessId"))),
  )
  .get("/GetBroadcasts", requireUser, (c) => c.json(c.var.ctx.services.broadcasts.list(c.var.user!, queryId(c, "businessId"))))
  .get("/GetBroadcastStatus", requireUser, (c) => c.json(c.var.ctx.services.broadcasts.status(c.var.user!, queryId(c))))
  .post("/RetryFailedDeliveries", requireUser, (c) =>
    c.json(c.var.ctx.services.broadcasts.retryFailed(c.var.user!, queryId(c, "broadcastId"))),
  );
