// Image uploads: real images of every accepted type, files that only pretend to be images, the 5 MB limit enforced
// while the body streams in, how stored images are served (GET and HEAD), and file names that try to escape.
// After every refusal the uploads folder and table must be exactly as before.
// Not the scenario runner: uploads are multipart forms and chunked bodies; the runner sends JSON or raw text.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { uploads } from "../../src/db/schema.ts";
import { MULTIPART_OVERHEAD } from "../../src/http/multipart.ts";
import { startServer } from "../../src/server.ts";
import { MAX_IMAGE_BYTES } from "../../src/schemas/images.ts";
import { IMAGE_TOO_LARGE, INVALID_IMAGE } from "../../src/schemas/texts.ts";
import { IMAGE_IN_USE, IMAGE_NOT_FOUND, INVALID_FILE_NAME } from "../../src/services/uploads.ts";
import { type ApiClient, apiClient, signUp } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { bmp, DISGUISED, GIF, imageForm, JPEG, padded, PNG, png, REAL_IMAGES } from "../helpers/images.ts";
import { type Member } from "../helpers/worlds.ts";

const LOGO = "/api/business/UploadLogo";
const SAMPLE = "/api/business/UploadSampleImage";
const ENDPOINTS = [
  { path: LOGO, kind: "logo" },
  { path: SAMPLE, kind: "sample" },
] as const;
const STORED = /^\/uploads\/[0-9a-f]{32}\.(jpg|png|gif|bmp)$/;
const XSRF = "test-xsrf-token";

let ctx: TestContext;
let api: ApiClient;
let dataDir: string;
let uploadsDir: string;
let owner: Member, other: Member, admin: Member;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "nearcast-uploads-"));
  ctx = testContext({ NEARCAST_ADMIN_EMAIL: "admin@example.com" }, { dataDir });
  api = apiClient(ctx);
  uploadsDir = ctx.services.uploads.dir;
  owner = await signUp(api);
  other = await signUp(api);
  admin = await signUp(api, { email: "admin@example.com" });
});
afterAll(() => {
  ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  ctx.db.delete(uploads).run();
  rmSync(uploadsDir, { recursive: true, force: true });
  mkdirSync(uploadsDir, { recursive: true });
});

const files = () => readdirSync(uploadsDir).sort();
const rows = () => ctx.db.select().from(uploads).orderBy(uploads.id).all();

function post(path: string, form: FormData, token: string | undefined = owner.token) {
  return api.call("POST", path, { token, body: form });
}

/** Headers a browser client would send, for hand-built requests. */
function headers(extra: Record<string, string> = {}, token = owner.token): Record<string, string> {
  return { cookie: `XSRF-TOKEN=${XSRF}`, "x-xsrf-token": XSRF, authorization: `Bearer ${token}`, ...extra };
}

/** Posts a streamed upload as the owner, declaring its Content-Length or (as a chunked body) not. */
function postStreamed(up: ReturnType<typeof streamedUpload>, declareLength = false) {
  const length: Record<string, string> = declareLength ? { "content-length": String(up.total) } : {};
  return api.app.request(LOGO, { method: "POST", headers: headers({ "content-type": up.contentType, ...length }), body: up.body });
}

/**
 * A multipart body whose file part is `head` followed by zeros, `fileSize` bytes in all, produced lazily in 64 KB
 * chunks; records how many bytes the server pulled.
 */
function streamedUpload(head: Uint8Array, fileSize: number) {
  const boundary = "----nearcast-test-boundary";
  const prefix = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`);
  const suffix = Buffer.from(`\r\n--${boundary}--\r\n`);
  const total = prefix.length + fileSize + suffix.length;
  const file = padded(head, Math.min(fileSize, 64 * 1024));
  let sent = 0;
  let filePos = 0;
  let stage = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      let chunk: Uint8Array;
      if (stage === 0) {
        chunk = prefix;
        stage = 1;
      } else if (stage === 1) {
        const n = Math.min(64 * 1024, fileSize - filePos);
        chunk = filePos === 0 ? file.subarray(0, n) : new Uint8Array(n);
        filePos += n;
        if (filePos >= fileSize) stage = 2;
      } else if (stage === 2) {
        chunk = suffix;
        stage = 3;
      } else {
        controller.close();
        return;
      }
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 }); // pulled only when the server reads
  return { body, total, contentType: `multipart/form-data; boundary=${boundary}`, pulled: () => sent };
}

describe("real images are stored and served with their exact type", () => {
  for (const img of REAL_IMAGES) {
    for (const ep of ENDPOINTS) {
      test(`${img.name} via ${ep.path.split("/").at(-1)}`, async () => {
        const res = await post(ep.path, imageForm(img.bytes, `photo.${img.ext}`, img.contentType));
        expect(res.status).toBe(201);
        expect(Object.keys(res.body)).toEqual(["filePath"]);
        const filePath: string = res.body.filePath;
        expect(filePath).toMatch(STORED);
        expect(filePath.endsWith(`.${img.ext}`)).toBe(true);
        const name = filePath.split("/").at(-1)!;

        // On disk: the exact bytes, under the random name, nothing else.
        expect(files()).toEqual([name]);
        expect(new Uint8Array(readFileSync(join(uploadsDir, name)))).toEqual(new Uint8Array(img.bytes));
        expect(rows()).toEqual([
          expect.objectContaining({ ownerId: owner.id, fileName: name, kind: ep.kind, contentType: img.contentType, size: img.bytes.length }),
        ]);

        // Served publicly: exact type and length, no sniffing, cached for long.
        const get = await api.call("GET", filePath, { noXsrf: true });
        expect(get.status).toBe(200);
        expect(get.headers.get("content-type")).toBe(img.contentType);
        expect(get.headers.get("content-length")).toBe(String(img.bytes.length));
        expect(get.headers.get("x-content-type-options")).toBe("nosniff");
        expect(get.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        const raw = await api.app.request(filePath);
        expect(new Uint8Array(await raw.arrayBuffer())).toEqual(new Uint8Array(img.bytes));

        const head = await api.app.request(filePath, { method: "HEAD" });
        expect(head.status).toBe(200);
        expect(head.headers.get("content-type")).toBe(img.contentType);
        expect(head.headers.get("content-length")).toBe(String(img.bytes.length));
        expect(head.headers.get("x-content-type-options")).toBe("nosniff");
        expect((await head.arrayBuffer()).byteLength).toBe(0);
      });
    }
  }

  test("the name and declared type of the upload are ignored: the content decides", async () => {
    const res = await post(LOGO, imageForm(PNG, "evil.html", "text/html"));
    expect(res.status).toBe(201);
    expect(res.body.filePath).toEndWith(".png");
    expect((await api.get(res.body.filePath)).headers.get("content-type")).toBe("image/png");
    const bmpAsJpeg = await post(SAMPLE, imageForm(bmp(3, 3), "photo.jpg", "image/jpeg"));
    expect(bmpAsJpeg.body.filePath).toEndWith(".bmp");
  });

  test("every upload gets a new random name, even for identical bytes", async () => {
    const a = await post(LOGO, imageForm(GIF));
    const b = await post(LOGO, imageForm(GIF));
    expect(a.body.filePath).not.toBe(b.body.filePath);
    expect(files()).toHaveLength(2);
  });

  test("other form fields are ignored", async () => {
    const form = imageForm(JPEG, "a.jpg", "image/jpeg");
    form.append("note", "hello");
    form.append("file2", new File([new Uint8Array(PNG)], "b.png"));
    const res = await post(SAMPLE, form);
    expect(res.status).toBe(201);
    expect(res.body.filePath).toEndWith(".jpg");
  });
});

describe("files that are not images are refused, and leave nothing behind", () => {
  for (const fake of DISGUISED) {
    for (const ep of ENDPOINTS) {
      test(`${fake.name} via ${ep.path.split("/").at(-1)}`, async () => {
        const res = await post(ep.path, imageForm(fake.bytes, fake.filename, fake.type));
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: "validation_failed", error: INVALID_IMAGE, fields: { file: INVALID_IMAGE } });
        expect(INVALID_IMAGE).toBe("Please select a valid image file (JPG, PNG, GIF, BMP)");
        expect(files()).toEqual([]);
        expect(rows()).toEqual([]);
      });
    }
  }

  test("a large non-image with a declared length (what browsers send) is refused from its first bytes, before the rest is read", async () => {
    const html = new TextEncoder().encode("<!doctype html><html><body>".padEnd(100, " "));
    const up = streamedUpload(html, 4 * 1024 * 1024);
    const res = await postStreamed(up, true);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: INVALID_IMAGE });
    expect(up.pulled()).toBeLessThan(1024 * 1024);
    expect(files()).toEqual([]);
  });

  test("without a declared length (chunked) the body limit reads it first, up to the cap: still a 400, nothing stored", async () => {
    const html = new TextEncoder().encode("<!doctype html><html><body>".padEnd(100, " "));
    const up = streamedUpload(html, 4 * 1024 * 1024);
    const res = await postStreamed(up);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: INVALID_IMAGE });
    expect(up.pulled()).toBeLessThanOrEqual(MAX_IMAGE_BYTES + MULTIPART_OVERHEAD);
    expect(files()).toEqual([]);
  });
});

describe("the 5 MB limit", () => {
  test("MAX_IMAGE_BYTES is the spec's 5242880", () => {
    expect(MAX_IMAGE_BYTES).toBe(5242880);
  });

  test("exactly 5242880 bytes (a valid header and padding) is accepted", async () => {
    const res = await post(SAMPLE, imageForm(padded(PNG, 5242880)));
    expect(res.status).toBe(201);
    expect(rows()[0]?.size).toBe(5242880);
    expect(files()).toHaveLength(1);
    const head = await api.app.request(res.body.filePath, { method: "HEAD" });
    expect(head.headers.get("content-length")).toBe("5242880");
  });

  for (const ep of ENDPOINTS) {
    test(`5242881 bytes is refused with 413 via ${ep.path.split("/").at(-1)}`, async () => {
      const res = await post(ep.path, imageForm(padded(JPEG, 5242881), "big.jpg", "image/jpeg"));
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ code: "payload_too_large", error: IMAGE_TOO_LARGE });
      expect(IMAGE_TOO_LARGE).toBe("File size cannot exceed 5MB");
      expect(files()).toEqual([]);
      expect(rows()).toEqual([]);
    });
  }

  test("a streamed body without Content-Length is cut off at the limit, not read to the end", async () => {
    const up = streamedUpload(PNG, 50 * 1024 * 1024);
    const res = await postStreamed(up);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: "payload_too_large", error: IMAGE_TOO_LARGE });
    expect(up.pulled()).toBeLessThan(MAX_IMAGE_BYTES + 256 * 1024);
    expect(files()).toEqual([]);
  });

  test("a declared Content-Length beyond the limit is refused before reading", async () => {
    const up = streamedUpload(PNG, 8 * 1024 * 1024);
    const res = await postStreamed(up, true);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: IMAGE_TOO_LARGE });
    expect(up.pulled()).toBe(0);
  });

  test("the 64 KB JSON limit does not apply to uploads but still applies elsewhere", async () => {
    const big = png(300, 300, (x, y) => [(x * 7) % 256, (y * 13) % 256, (x * y) % 256]);
    expect(big.length).toBeGreaterThan(64 * 1024);
    expect((await post(LOGO, imageForm(big))).status).toBe(201);
    const json = await api.post("/api/business/CreateBusiness", { name: "x".repeat(70 * 1024) }, { token: owner.token });
    expect(json.status).toBe(413);
  });
});

describe("who may upload, and malformed requests", () => {
  test("anonymous: 401, the body is not read", async () => {
    const up = streamedUpload(PNG, 1024 * 1024);
    const res = await api.app.request(LOGO, {
      method: "POST",
      headers: { cookie: `XSRF-TOKEN=${XSRF}`, "x-xsrf-token": XSRF, "content-type": up.contentType },
      body: up.body,
    });
    expect(res.status).toBe(401);
    expect(up.pulled()).toBe(0);
    expect(files()).toEqual([]);
  });

  test("without the XSRF header: 403", async () => {
    const res = await api.call("POST", LOGO, { token: owner.token, body: imageForm(PNG), noXsrf: true });
    expect(res.status).toBe(403);
    expect(files()).toEqual([]);
  });

  test("no field named file: 400", async () => {
    const res = await post(LOGO, imageForm(PNG, "a.png", "image/png", "image"));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_failed", fields: { file: "Please choose an image to upload." } });
  });

  test("a JSON body instead of multipart: 400", async () => {
    const res = await api.post(LOGO, { file: "iVBORw0KGgo=" }, { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("multipart/form-data");
  });

  test("a multipart body cut short: 400, nothing stored", async () => {
    const form = imageForm(PNG);
    const req = new Request("http://x/", { method: "POST", body: form });
    const type = req.headers.get("content-type")!;
    const bytes = new Uint8Array(await req.arrayBuffer());
    const res = await api.app.request(LOGO, { method: "POST", headers: headers({ "content-type": type }), body: bytes.subarray(0, bytes.length - 30) });
    expect(res.status).toBe(400);
    expect(files()).toEqual([]);
  });
});

describe("serving: only stored images, never anything else from disk", () => {
  beforeEach(() => {
    writeFileSync(join(dataDir, "secret.txt"), "not for the web");
    writeFileSync(join(uploadsDir, "notes.txt"), "stray file");
    writeFileSync(join(uploadsDir, `${"a".repeat(32)}.png`), PNG); // right shape, but not in the table
  });

  for (const path of [
    `/uploads/${"f".repeat(32)}.png`,
    `/uploads/${"a".repeat(32)}.png`,
    "/uploads/notes.txt",
    "/uploads/..%2fsecret.txt",
    "/uploads/%2e%2e%2fsecret.txt",
    "/uploads/..%5csecret.txt",
    "/uploads/../secret.txt",
    "/uploads/",
  ]) {
    test(`GET and HEAD ${path}: 404`, async () => {
      const get = await api.app.request(path);
      expect(get.status).toBe(404);
      expect(await get.text()).not.toContain("not for the web");
      expect((await api.app.request(path, { method: "HEAD" })).status).toBe(404);
    });
  }
});

describe("deleting by file name", () => {
  const traversal = [
    "../secret.txt",
    "..%2fsecret.txt",
    "%2e%2e%2fsecret.txt",
    "..\\secret.txt",
    "/etc/passwd",
    `/uploads/../${"b".repeat(32)}.png`,
    `sub/${"b".repeat(32)}.png`,
    `..\\..\\uploads\\${"b".repeat(32)}.png`,
    `${"b".repeat(32)}.png/`,
    `${"b".repeat(32)}.PNG`,
    `${"b".repeat(32)}.png%00.txt`,
    ".",
    "..",
    "notes.txt",
  ];

  for (const name of traversal) {
    test(`refuses "${name}" and deletes nothing`, async () => {
      writeFileSync(join(dataDir, "secret.txt"), "keep me");
      writeFileSync(join(uploadsDir, "notes.txt"), "keep me too");
      const mine = await post(LOGO, imageForm(PNG));
      const before = { files: files(), rows: rows(), data: readdirSync(dataDir).sort() };
      for (const ep of ["DeleteLogo", "DeleteSampleImage"]) {
        // Both raw and URL-encoded, so the server sees the name exactly as written and also decoded once.
        for (const q of [encodeURIComponent(name), name]) {
          const res = await api.del(`/api/business/${ep}?fileName=${q}`, { token: owner.token });
          expect([400, 404]).toContain(res.status);
          if (res.status === 400) expect(res.body.error).toBeOneOf([INVALID_FILE_NAME, "The fileName parameter is required."]);
        }
      }
      expect({ files: files(), rows: rows(), data: readdirSync(dataDir).sort() }).toEqual(before);
      expect(readFileSync(join(dataDir, "secret.txt"), "utf8")).toBe("keep me");
      expect(mine.status).toBe(201);
    });
  }

  test("a name that is not stored: 404", async () => {
    const res = await api.del(`/api/business/DeleteLogo?fileName=${"c".repeat(32)}.png`, { token: owner.token });
    expect(res).toMatchObject({ status: 404, body: { error: IMAGE_NOT_FOUND } });
  });

  test("own image: deleted from disk and table, then no longer served", async () => {
    const up = await post(SAMPLE, imageForm(JPEG, "a.jpg", "image/jpeg"));
    const name = up.body.filePath.split("/").at(-1);
    const res = await api.del(`/api/business/DeleteSampleImage?fileName=${name}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(files()).toEqual([]);
    expect(rows()).toEqual([]);
    expect((await api.get(up.body.filePath)).status).toBe(404);
    expect((await api.del(`/api/business/DeleteSampleImage?fileName=${name}`, { token: owner.token })).status).toBe(404);
  });

  test("another owner's image: 404 and it stays; the admin may delete it", async () => {
    const up = await post(LOGO, imageForm(PNG));
    const name = up.body.filePath.split("/").at(-1);
    const res = await api.del(`/api/business/DeleteLogo?fileName=${name}`, { token: other.token });
    expect(res).toMatchObject({ status: 404, body: { error: IMAGE_NOT_FOUND } });
    expect(files()).toEqual([name]);
    expect((await api.del(`/api/business/DeleteLogo?fileName=${name}`, { token: admin.token })).status).toBe(200);
    expect(files()).toEqual([]);
  });

  test("an image a business shows: 409 and it stays", async () => {
    const up = await post(LOGO, imageForm(PNG));
    insertBusiness(ctx, { ownerId: owner.id, logoImagePath: up.body.filePath, sampleImagePath: up.body.filePath });
    const res = await api.del(`/api/business/DeleteLogo?fileName=${up.body.filePath.split("/").at(-1)}`, { token: owner.token });
    expect(res).toMatchObject({ status: 409, body: { error: IMAGE_IN_USE } });
    expect(files()).toHaveLength(1);
    expect(rows()).toHaveLength(1);
  });
});

describe("through a real HTTP server", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let base: string;
  beforeAll(() => {
    server = startServer({ ...ctx, config: { ...ctx.config, port: 0, host: "127.0.0.1" } }, {});
    base = server.url;
  });
  afterAll(async () => {
    await server.stop();
  });

  test("upload, then GET and HEAD with the exact type and length", async () => {
    const res = await fetch(`${base}${LOGO}`, { method: "POST", headers: headers(), body: imageForm(GIF, "a.gif", "image/gif") });
    expect(res.status).toBe(201);
    const { filePath } = (await res.json()) as { filePath: string };
    const get = await fetch(`${base}${filePath}`);
    expect(get.headers.get("content-type")).toBe("image/gif");
    expect(get.headers.get("content-length")).toBe(String(GIF.length));
    expect(new Uint8Array(await get.arrayBuffer())).toEqual(GIF);
    const head = await fetch(`${base}${filePath}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("image/gif");
    expect(head.headers.get("content-length")).toBe(String(GIF.length));
    expect(head.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("5 MB + 1 byte over the wire: 413 with the spec's text, nothing stored", async () => {
    const res = await fetch(`${base}${SAMPLE}`, { method: "POST", headers: headers(), body: imageForm(padded(PNG, 5242881)) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: IMAGE_TOO_LARGE });
    expect(files()).toEqual([]);
  });

  test("a 20 MB upload is refused and nothing is stored", async () => {
    const res = await fetch(`${base}${SAMPLE}`, { method: "POST", headers: headers(), body: imageForm(padded(PNG, 20 * 1024 * 1024)) }).catch(
      (e: Error) => e,
    );
    // The server may answer 413 or close the connection early; either way nothing is kept.
    if (res instanceof Response) expect(res.status).toBe(413);
    expect(files()).toEqual([]);
    expect(existsSync(uploadsDir)).toBe(true);
  });
});
