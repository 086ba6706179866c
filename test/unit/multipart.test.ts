import { describe, expect, test } from "bun:test";
import { multipartBoundary, multipartField, multipartParts, partBytes, partText } from "../../src/http/multipart.ts";

const MISSING = "Please choose an image to upload.";

/** A body that hands out `bytes` in chunks of `size` and records how much was pulled. */
function chunked(bytes: Uint8Array, size: number) {
  let offset = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => Math.min(offset, bytes.length), cancelled: () => cancelled };
}

async function form(fields: Record<string, string | Uint8Array>): Promise<{ bytes: Uint8Array; type: string }> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === "string") fd.append(k, v);
    else fd.append(k, new File([new Uint8Array(v)], `${k}.bin`, { type: "application/octet-stream" }));
  }
  const req = new Request("http://x/", { method: "POST", body: fd });
  const type = req.headers.get("content-type")!; // (read before the body: Bun drops it afterwards)
  return { bytes: new Uint8Array(await req.arrayBuffer()), type };
}

async function collect(gen: AsyncGenerator<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of gen) parts.push(c);
  return new Uint8Array(Buffer.concat(parts));
}

const payload = new Uint8Array(Array.from({ length: 3000 }, (_, i) => (i * 7 + 13) % 256));

describe("multipartBoundary", () => {
  test("reads plain and quoted boundaries, ignores other types", () => {
    expect(multipartBoundary("multipart/form-data; boundary=abc123")).toBe("abc123");
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe("a b:c");
    expect(multipartBoundary("multipart/form-data")).toBeNull();
    expect(multipartBoundary("application/json")).toBeNull();
    expect(multipartBoundary("multipart/form-datax; boundary=a")).toBeNull();
    expect(multipartBoundary(undefined)).toBeNull();
  });
});

describe("multipartField", () => {
  test("returns exactly the field's bytes whatever the chunk size (1 byte .. whole body)", async () => {
    // Other fields before and after, one of them containing a near-boundary.
    const { bytes, type } = await form({ note: "hello\r\n--not-the-boundary", file: payload, after: "x" });
    for (const size of [1, 2, 3, 7, 41, 64, 1000, bytes.length]) {
      const body = chunked(bytes, size);
      expect(await collect(multipartField(body.stream, type, "file", MISSING))).toEqual(payload);
    }
  });

  test("an empty field yields nothing", async () => {
    const { bytes, type } = await form({ file: new Uint8Array(0) });
    expect(await collect(multipartField(chunked(bytes, 5).stream, type, "file", MISSING))).toEqual(new Uint8Array(0));
  });

  test("stops reading when the consumer stops (the rest of the body is never pulled)", async () => {
    const big = new Uint8Array(2_000_000).fill(65);
    const { bytes, type } = await form({ file: big });
    const body = chunked(bytes, 16 * 1024);
    let seen = 0;
    for await (const c of multipartField(body.stream, type, "file", MISSING)) {
      seen += c.length;
      if (seen > 100_000) break;
    }
    expect(body.pulled()).toBeLessThan(200_000);
    expect(body.cancelled()).toBe(true);
  });

  test("no such field: 400 with the given message", async () => {
    const { bytes, type } = await form({ other: "x" });
    const err = await collect(multipartField(chunked(bytes, 10).stream, type, "file", MISSING)).catch((e) => e);
    expect(err).toMatchObject({ status: 400, message: MISSING });
  });

  test("a body cut short is a 400", async () => {
    const { bytes, type } = await form({ file: payload });
    const err = await collect(multipartField(chunked(bytes.subarray(0, bytes.length - 60), 100).stream, type, "file", MISSING)).catch((e) => e);
    expect(err).toMatchObject({ status: 400 });
  });

  test("not multipart: 400", async () => {
    const err = await collect(multipartField(chunked(payload, 10).stream, "application/json", "file", MISSING)).catch((e) => e);
    expect(err).toMatchObject({ status: 400 });
  });

});

describe("multipartParts", () => {
  const MALFORMED = "not a form";

  test("every part in order, with its name and filename (null for a text field, \"\" for an empty file input)", async () => {
    const fd = new FormData();
    fd.append("BusinessId", "12");
    fd.append("Image", new File([new Uint8Array(payload)], "deal.png", { type: "image/png" }));
    fd.append("empty", new File([], "", { type: "application/octet-stream" }));
    fd.append("MessageText", "Half price \u2014 today\r\n--not-a-boundary");
    const req = new Request("http://x/", { method: "POST", body: fd });
    const type = req.headers.get("content-type")!;
    const bytes = new Uint8Array(await req.arrayBuffer());
    for (const size of [1, 7, 64, 1000, bytes.length]) {
      const seen: unknown[] = [];
      for await (const part of multipartParts(chunked(bytes, size).stream, multipartBoundary(type)!, MALFORMED)) {
        const value = part.filename === null ? await partText(part.content) : await partBytes(part.content, 1_000_000);
        seen.push({ name: part.name, filename: part.filename, value });
      }
      expect(seen).toEqual([
        { name: "BusinessId", filename: null, value: "12" },
        { name: "Image", filename: "deal.png", value: Buffer.from(payload) },
        { name: "empty", filename: "", value: Buffer.alloc(0) },
        { name: "MessageText", filename: null, value: "Half price \u2014 today\r\n--not-a-boundary" },
      ]);
    }
  });

  test("a part left unread is skipped; the next part comes whole", async () => {
    const { bytes, type } = await form({ junk: new Uint8Array(200_000).fill(7), file: payload });
    const names: (string | null)[] = [];
    let file: Uint8Array | null = null;
    for await (const part of multipartParts(chunked(bytes, 4096).stream, multipartBoundary(type)!, MALFORMED)) {
      names.push(part.name);
      if (part.name === "file") file = await partBytes(part.content, 1_000_000);
    }
    expect(names).toEqual(["junk", "file"]);
    expect(file).toEqual(Buffer.from(payload));
  });

  test("partBytes: null past the cap, without reading the rest of the part", async () => {
    const { bytes, type } = await form({ file: new Uint8Array(1_000_000) });
    const body = chunked(bytes, 8 * 1024);
    for await (const part of multipartParts(body.stream, multipartBoundary(type)!, MALFORMED)) {
      expect(await partBytes(part.content, 50_000)).toBeNull();
      break;
    }
    expect(body.pulled()).toBeLessThan(100_000);
    expect(body.cancelled()).toBe(true);
  });

  test("a body cut short: 400 with the caller's message", async () => {
    const { bytes, type } = await form({ a: "x", file: payload });
    const parts = async () => {
      for await (const part of multipartParts(chunked(bytes.subarray(0, bytes.length - 60), 100).stream, multipartBoundary(type)!, MALFORMED)) {
        await partText(part.content);
      }
    };
    expect(await parts().catch((e) => e)).toMatchObject({ status: 400, message: MALFORMED });
  });
});
