// A streaming reader of multipart/form-data bodies, for the two upload routes. Unlike Request.formData() it never
// holds the whole body: parts come one at a time, each with its content as a stream, so a file can be capped while it
// arrives and the upload cut off the moment the cap is passed. The route's capBody (middleware/body-limit.ts)
// caps the body as a whole, also while it streams.
import { ValidationError } from "../errors.ts";

/** Bytes of multipart framing and small text fields allowed besides the image (the upload routes' body limit). */
export const MULTIPART_OVERHEAD = 64 * 1024;
const MAX_PART_HEADERS = 8 * 1024;

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

/** The boundary of a multipart/form-data Content-Type, or null when the type is something else. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return m?.[1] ?? m?.[2] ?? null;
}

export interface MultipartPart {
  /** The name="..." of the part, or null. */
  name: string | null;
  /** The filename="..." of a file part ("" for a file input left empty); null for a text field. */
  filename: string | null;
  /** The content, chunk by chunk. Read it (or not) before asking for the next part: what is left unread is skipped. */
  content: AsyncGenerator<Uint8Array>;
}

const PARAM = {
  name: /;\s*name\s*=\s*(?:"([^"]*)"|([^\s;]+))/i,
  filename: /;\s*filename\s*=\s*(?:"([^"]*)"|([^\s;]+))/i,
};

/** One parameter of a part's Content-Disposition header, from its header block. */
function dispositionParam(headers: string, param: keyof typeof PARAM): string | null {
  for (const line of headers.split("\r\n")) {
    const m = /^content-disposition\s*:(.*)$/i.exec(line);
    if (!m) continue;
    const value = PARAM[param].exec(m[1]!);
    return value?.[1] ?? value?.[2] ?? null;
  }
  return null;
}

/**
 * The parts of a multipart/form-data body, in order. Throws a 400 with `malformedMessage` when the body is cut short
 * or is not multipart. Stops reading (and cancels the body) when the consumer stops or the closing boundary comes.
 */
export async function* multipartParts(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  malformedMessage: string,
): AsyncGenerator<MultipartPart> {
  // Every boundary, the first one included, is matched as CRLF "--" boundary: the body is read as if it began with
  // a CRLF, which also skips any preamble.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const reader = body.getReader();
  let buf: Buffer = Buffer.from(CRLF);

  const malformed = (): never => {
    throw new ValidationError(malformedMessage);
  };
  const more = async (): Promise<boolean> => {
    const { done, value } = await reader.read();
    if (done) return false;
    if (value.length > 0) buf = buf.length === 0 ? Buffer.from(value) : Buffer.concat([buf, value]);
    return true;
  };
  /** Everything up to the next delimiter, holding back what could be the start of one. */
  async function* content(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const stop = buf.indexOf(delimiter);
      const end = stop >= 0 ? stop : buf.length - (delimiter.length - 1);
      if (end > 0) {
        const chunk = buf.subarray(0, end);
        buf = buf.subarray(end);
        yield chunk;
      }
      if (stop >= 0) return;
      if (!(await more())) malformed();
    }
  }

  try {
    for (;;) {
      // Find the next delimiter, discarding what precedes it (the preamble, or what the consumer left unread).
      let at: number;
      while ((at = buf.indexOf(delimiter)) < 0) {
        buf = buf.subarray(Math.max(0, buf.length - (delimiter.length - 1)));
        if (!(await more())) malformed();
      }
      buf = buf.subarray(at + delimiter.length);
      while (buf.length < 2) if (!(await more())) malformed();
      if (buf[0] === 0x2d && buf[1] === 0x2d) return; // "--": the closing delimiter, no more parts

      let end: number;
      while ((end = buf.indexOf(HEADER_END)) < 0) {
        if (buf.length > MAX_PART_HEADERS) throw new ValidationError("A multipart part header is too long.");
        if (!(await more())) malformed();
      }
      // The header block starts after the CRLF that ends the delimiter line (transport padding is ignored).
      const raw = buf.subarray(0, end).toString("utf8");
      const headers = raw.slice(raw.indexOf("\r\n") + 2);
      buf = buf.subarray(end + HEADER_END.length);
      const name = dispositionParam(headers, "name");
      yield { name, filename: dispositionParam(headers, "filename"), content: content() };
    }
  } finally {
    // Whatever is left unread is not wanted: stop the upload instead of draining it.
    reader.cancel().catch(() => undefined);
  }
}

const MALFORMED_UPLOAD = "The upload is incomplete or not valid multipart/form-data. Please try again.";

/**
 * Yields the content of the part named `field`, chunk by chunk. Throws a 400 when the body is not multipart, is cut
 * short, or has no such part. Stops reading as soon as the field ends or the consumer stops.
 */
export async function* multipartField(
  body: ReadableStream<Uint8Array> | null,
  contentType: string | undefined,
  field: string,
  missingMessage: string,
): AsyncGenerator<Uint8Array> {
  const boundary = multipartBoundary(contentType);
  if (!boundary) throw new ValidationError(`Send the image as multipart/form-data in a field named "${field}".`);
  const missing = () => new ValidationError(missingMessage, { [field]: missingMessage });
  if (!body) throw missing();
  for await (const part of multipartParts(body, boundary, MALFORMED_UPLOAD)) {
    if (part.name === field) {
      yield* part.content;
      return;
    }
  }
  throw missing();
}

/** All of a part's content (for the small text fields; the route's body limit bounds it). */
export async function partText(content: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of content) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** All of a part's content, or null as soon as it grows past `max` bytes (the rest is left unread). */
export async function partBytes(content: AsyncIterable<Uint8Array>, max: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of content) {
    size += chunk.length;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
