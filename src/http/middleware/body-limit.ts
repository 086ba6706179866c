import type { Context, MiddlewareHandler } from "hono";
import { PayloadTooLargeError } from "../../errors.ts";
import { IMPORT_MAX_BYTES, IMPORT_TOO_LARGE } from "../../schemas/customer-import.ts";
import { MAX_IMAGE_BYTES } from "../../schemas/images.ts";
import { errorJson } from "../errors.ts";
import { MULTIPART_OVERHEAD } from "../multipart.ts";
import type { AppEnv } from "../types.ts";

// The body caps of the API. Every body is cut off WHILE it streams, at its route's limit, and never held whole:
// - a declared Content-Length over the cap is refused before a byte is read;
// - a body without one (chunked) is handed on as a stream that counts what passes through and fails the moment the
//   count passes the cap; whatever the route was doing with it, the answer becomes the route's 413 in the one error
//   shape. (Hono's bodyLimit buffered a chunked body up to the cap before the route saw it: 5 MB per upload.)
// Any answer given while a chunked body is still arriving (a 413, or a 401/403/404 given without reading it) carries
// `Connection: close`, so Bun closes the socket instead of draining whatever the sender still has.
// bodyBackstop (on every path, app.ts) stops any chunked body just past the largest route limit; Bun.serve's
// maxRequestBodySize (server.ts) refuses larger declared lengths before the app sees them.

/** The cap on JSON bodies, on Twilio's form posts (a few hundred bytes each) and on any route not named below. */
export const JSON_BODY_LIMIT = 64 * 1024;
/** The cap on the upload routes' bodies: one image and a few text fields. */
export const UPLOAD_BODY_LIMIT = MAX_IMAGE_BYTES + MULTIPART_OVERHEAD;
/** The app's backstop, above every route's limit (so a route's own 413 text always comes first). */
export const MAX_BODY_LIMIT = Math.max(JSON_BODY_LIMIT, UPLOAD_BODY_LIMIT, IMPORT_MAX_BYTES) + 64 * 1024;

/** Bun.serve's maxRequestBodySize: declared lengths above it never reach the app. */
export const DECLARED_BODY_CEILING = 16 * 1024 * 1024;

/** A body that fails once more than `maxSize` bytes pass through; `state` tells whether it ended or was cut off. */
function cappedStream(source: ReadableStream<Uint8Array>, maxSize: number, state: { ended: boolean; tooLarge: boolean }) {
  const reader = source.getReader();
  let size = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        state.ended = true;
        controller.close();
        return;
      }
      size += value.byteLength;
      if (size > maxSize) {
        state.tooLarge = true;
        reader.cancel().catch(() => undefined);
        controller.error(new PayloadTooLargeError());
        return;
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 }); // nothing is read before the route asks

}

/** The 413. A body still streaming is not drained: the connection closes after the answer. (A declared length is
 * bounded, so Bun may drain it, and a browser still sending it then reliably reads the answer.) */
function tooLargeAnswer(c: Context<AppEnv>, message: string, close = true) {
  const res = errorJson(c, 413, "payload_too_large", message);
  if (close) res.headers.set("connection", "close");
  return res;
}

/** Marks the answer to close the connection (the headers of a Response passed through may be immutable). */
function closeAfter(c: Context<AppEnv>) {
  try {
    c.res.headers.set("connection", "close");
  } catch {
    const res = new Response(c.res.body, c.res);
    res.headers.set("connection", "close");
    c.res = res;
  }
}

interface CapOptions {
  /** The 413's text (default: "Request body is too large."). */
  message?: string;
  /** Read the whole body (at most the cap) before the route runs; only for small caps. */
  buffer?: boolean;
  /** Refuse a declared Content-Length over the cap (default true). The backstop leaves that to the route, whose
   * 413 text is the one a person should read; Bun's maxRequestBodySize bounds declared lengths. */
  declared?: boolean;
}

/**
 * Caps the request body at `maxSize` bytes while it streams; over the cap the answer is a 413 with `message`.
 * Nested caps are fine: the innermost (the route's) is the smallest and trips first. With `buffer`, the whole body
 * (at most `maxSize` bytes) is read before the route runs, so an oversized body is a 413 before anything else is
 * looked at; for small caps only (JSON, webhooks), uploads stream.
 */
export function capBody(maxSize: number, options: CapOptions = {}): MiddlewareHandler<AppEnv> {
  const { message = new PayloadTooLargeError().message, buffer = false, declared: checkDeclared = true } = options;
  return async function capBody(c, next) {
    const raw = c.req.raw;
    if (!raw.body) return next();
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      // Bun holds the body to its declared length, so a small declared length is its own cap.
      if (checkDeclared && Number(declared) > maxSize) return tooLargeAnswer(c, message, false);
      return next();
    }
    const state = { ended: false, tooLarge: false };
    const body = cappedStream(raw.body, maxSize, state);
    if (buffer) {
      let bytes: ArrayBuffer;
      try {
        bytes = await new Response(body).arrayBuffer();
      } catch (err) {
        if (state.tooLarge) return tooLargeAnswer(c, message);
        throw err;
      }
      c.req.raw = new Request(raw, { body: bytes });
      return next();
    }
    c.req.raw = new Request(raw, { body, duplex: "half" } as RequestInit);
    await next();
    // The route may have turned the failed read into anything (a 400 "not JSON", a 500): the answer is the 413.
    if (state.tooLarge) c.res = tooLargeAnswer(c, message);
    else if (!state.ended) closeAfter(c);
  };
}

/** For routes that read JSON, for the webhooks, and for the API's unknown paths. */
export const smallBody = capBody(JSON_BODY_LIMIT, { buffer: true });

/** For routes that take one image (5 MB) with a few text fields; `message` is the route's 413 text from the spec. */
export const imageBody = (message: string) => capBody(UPLOAD_BODY_LIMIT, { message });

/** For the Customers screen's CSV import: the file is the body (5 MB at most), read whole before the route. */
export const csvBody = capBody(IMPORT_MAX_BYTES, { message: IMPORT_TOO_LARGE, buffer: true });

/** The app's backstop on every path (app.ts): chunked bodies stop at MAX_BODY_LIMIT whatever the route does. */
export const bodyBackstop = capBody(MAX_BODY_LIMIT, { declared: false });
