import { bodyLimit } from "hono/body-limit";
import { PayloadTooLargeError } from "../../errors.ts";
import { MAX_IMAGE_BYTES } from "../../schemas/images.ts";
import { MULTIPART_OVERHEAD } from "../multipart.ts";

// The one body cap of the API, put on each route that reads a body. Hono's bodyLimit refuses a declared
// Content-Length over the cap before reading anything; a body without one (chunked) is read into memory up to the cap
// and refused as soon as it passes it. Either way the answer is a 413 in the one error shape.

/** The cap on JSON bodies (and on Twilio's form posts, a few hundred bytes each). */
export const JSON_BODY_LIMIT = 64 * 1024;

function capAt(maxSize: number, message?: string) {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new PayloadTooLargeError(message);
    },
  });
}

/** For routes that read JSON, and for the webhooks. */
export const smallBody = capAt(JSON_BODY_LIMIT);

/** For routes that take one image (5 MB) with a few text fields; `message` is the route's 413 text from the spec. */
export const imageBody = (message: string) => capAt(MAX_IMAGE_BYTES + MULTIPART_OVERHEAD, message);
