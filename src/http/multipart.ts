// A streaming reader for one field of a multipart/form-data body. Unlike Request.formData() it never holds the
// whole body: it yields the field's bytes as they arrive, so the consumer can stop reading (and the upload is cut
// off) the moment a limit is passed. Other parts are skipped, within a small budget.
import { PayloadTooLargeError, ValidationError } from "../errors.ts";

/** Bytes of multipart framing and other fields tolerated besides the wanted field. */
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

function malformed(): never {
  throw new ValidationError("The upload is incomplete or not valid multipart/form-data. Please try again.");
}

/** The name="..." of a part's Content-Disposition header block. */
function partName(headers: string): string | null {
  for (const line of headers.split("\r\n")) {
    const m = /^content-disposition\s*:(.*)$/i.exec(line);
    if (!m) continue;
    const name = /;\s*name\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(m[1]!);
    return name?.[1] ?? name?.[2] ?? null;
  }
  return null;
}

/**
 * Yields the content of the part named `field` from a multipart/form-data body, chunk by chunk. Throws a 400 when
 * the body is not multipart, is cut short, or has no such part, and a 413 when the other parts exceed
 * MULTIPART_OVERHEAD. Stops reading (and cancels the body) as soon as the field ends or the consumer stops.
 */
export async function* multipartField(
  body: ReadableStream<Uint8Array> | null,
  contentType: string | undefined,
  field: string,
  missingMessage: string,
): AsyncGenerator<Uint8Array> {
  const boundary = multipartBoundary(contentType);
  if (!boundary) throw new ValidationError(`Send the image as multipart/form-data in a field named "${field}".`);
  if (!body) throw new ValidationError(missingMessage, { [field]: missingMessage });

  // Every boundary, the first one included, is matched as CRLF "--" boundary: the body is read as if it began with
  // a CRLF, which also skips any preamble.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const reader = body.getReader();
  let buf: Buffer = Buffer.from(CRLF);
  let skipped = 0;

  const more = async (): Promise<boolean> => {
    const { done, value } = await reader.read();
    if (done) return false;
    if (value.length > 0) buf = buf.length === 0 ? Buffer.from(value) : Buffer.concat([buf, value]);
    return true;
  };
  /** Drops everything before `at`, counting it against the overhead budget. */
  const skip = (at: number) => {
    skipped += at;
    if (skipped > MULTIPART_OVERHEAD) throw new PayloadTooLargeError();
    buf = buf.subarray(at);
  };

  try {
    for (;;) {
      // Find the next delimiter, discarding what precedes it (preamble or an unwanted part's content).
      let at: number;
      while ((at = buf.indexOf(delimiter)) < 0) {
        skip(Math.max(0, buf.length - (delimiter.length - 1)));
        if (!(await more())) malformed();
      }
      skip(at + delimiter.length);
      while (buf.length < 2) if (!(await more())) malformed();
      if (buf[0] === 0x2d && buf[1] === 0x2d) break; // "--": the closing delimiter, no more parts

      let end: number;
      while ((end = buf.indexOf(HEADER_END)) < 0) {
        if (buf.length > MAX_PART_HEADERS) throw new ValidationError("A multipart part header is too long.");
        if (!(await more())) malformed();
      }
      // The header block starts after the CRLF that ends the delimiter line (transport padding is ignored).
      const headers = buf.subarray(0, end).toString("utf8");
      skip(end + HEADER_END.length);
      if (partName(headers.slice(headers.indexOf("\r\n") + 2)) !== field) continue;

      // The wanted part: hand out everything up to the next delimiter, holding back a possible partial delimiter.
      for (;;) {
        const stop = buf.indexOf(delimiter);
        if (stop >= 0) {
          if (stop > 0) yield buf.subarray(0, stop);
          return;
        }
        const safe = buf.length - (delimiter.length - 1);
        if (safe > 0) {
          const chunk = buf.subarray(0, safe);
          buf = buf.subarray(safe);
          yield chunk;
        }
        if (!(await more())) malformed();
      }
    }
    throw new ValidationError(missingMessage, { [field]: missingMessage });
  } finally {
    // Whatever is left unread is not wanted: stop the upload instead of draining it.
    reader.cancel().catch(() => undefined);
  }
}
