import type { Context } from "hono";
import type * as v from "valibot";
import { PayloadTooLargeError, ValidationError } from "../../errors.ts";
import { wireName } from "../../schemas/broadcast-input.ts";
import { MAX_IMAGE_BYTES } from "../../schemas/images.ts";
import { BROADCAST_IMAGE_TOO_LARGE, BROADCAST_INVALID_IMAGE } from "../../schemas/texts.ts";
import { multipartBoundary, multipartParts, partBytes, partText } from "../multipart.ts";
import type { AppEnv } from "../types.ts";

// The broadcast forms (publish, schedule update, cancel, test send): multipart, or form-urlencoded without an image.
// Their fields are the keys of the schemas in src/schemas/broadcast-input.ts, each sent as the spec names it
// (BusinessId) or as the web form does (businessId); where both come, the spec's name wins.

const NOT_A_FORM =
  "Send the broadcast as multipart/form-data with BusinessId, MessageText, an optional Image, an optional Confirm, an optional ScheduledFor and an optional ContentSid with ContentVariables.";

/** The one field whose value is a file. */
const IMAGE_KEY = "image";

/** A form field as Request.formData() tells them apart: text, or a file (bytes null: larger than MAX_IMAGE_BYTES). */
type FieldValue = { text: string } | { filename: string; bytes: Uint8Array | null };

type ObjectSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

/** The names a schema key is sent under, the spec's first. */
const namesOf = (key: string) => [wireName(key), key];

/**
 * The first value of each wanted field, in one pass over the body: multipart (the file read as it arrives and cut off
 * past 5 MB) or, without an image, form-urlencoded.
 */
async function readFields(c: Context<AppEnv>, wanted: ReadonlySet<string>): Promise<Map<string, FieldValue>> {
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
    else fields.set(name, { filename, bytes: namesOf(IMAGE_KEY).includes(name) ? await partBytes(content, MAX_IMAGE_BYTES) : null });
  }
  return fields;
}

function imageOf(value: FieldValue | undefined): Uint8Array | null {
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

/**
 * The form's fields as the schema's input, for the service to check with it: each key's text, the image's bytes.
 * A file where text belongs is passed as it came (not text), and each field's schema says what that means.
 */
export async function readForm<S extends ObjectSchema>(c: Context<AppEnv>, schema: S): Promise<v.InferInput<S>> {
  const keys = Object.keys(schema.entries);
  const fields = await readFields(c, new Set(keys.flatMap(namesOf)));
  const values = keys.map((key) => {
    const value = namesOf(key).map((name) => fields.get(name)).find((f) => f !== undefined);
    if (key === IMAGE_KEY) return [key, imageOf(value)];
    return [key, value && "text" in value ? value.text : value];
  });
  return Object.fromEntries(values) as v.InferInput<S>;
}
