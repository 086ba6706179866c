// QR code images and PDF posters through the HTTP API (app.request on an in-memory database), plus the services.
// Not the scenario runner: PNG and PDF answers are read as bytes (ETag, 304, decoded QR), not as JSON.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import QRCode from "qrcode";
import { posterDisclosure, UNSUBSCRIBE_NOTE } from "../../src/schemas/poster-text.ts";
import { imageKind, posterFileName, qrRects, readUploadedImage, renderPoster } from "../../src/services/posters.ts";
import { QR_QUIET_ZONE, QrPngCache, renderQrPng } from "../../src/services/qr-codes.ts";
import { apiClient, PUBLIC_URL, signUp } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { insertBusiness, insertBusinessType } from "../helpers/factories.ts";
import { isPdf, pdfText } from "../helpers/pdf-text.ts";
import { decodePng, isPng } from "../helpers/png.ts";
import { decodeQrPng } from "../helpers/qr-decode.ts";


/** Raw bytes from the app (the JSON helper would mangle a PNG or PDF). */
async function fetchBytes(app: ReturnType<typeof apiClient>["app"], path: string, headers: Record<string, string> = {}) {
  const res = await app.request(path, { headers }, { requestIP: () => ({ address: "203.0.113.9" }) });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

let ctx: ReturnType<typeof testContext>;
let api: ReturnType<typeof apiClient>;
let ownerA: Awaited<ReturnType<typeof signUp>>;
let ownerB: Awaited<ReturnType<typeof signUp>>;
let admin: Awaited<ReturnType<typeof signUp>>;
let active: { id: number; name: string };
let inactive: { id: number };

beforeAll(async () => {
  ctx = testContext({ NEARCAST_PUBLIC_URL: PUBLIC_URL, NEARCAST_ADMIN_EMAIL: "boss@example.com" });
  api = apiClient(ctx);
  ownerA = await signUp(api);
  ownerB = await signUp(api);
  admin = await signUp(api, { email: "boss@example.com" });
  const pizza = insertBusinessType(ctx, { name: "Pizza Restaurant" });
  active = insertBusiness(ctx, { ownerId: ownerA.id, businessTypeId: pizza.id, name: "Luigi's Corner Pizza" });
  inactive = insertBusiness(ctx, { ownerId: ownerA.id, businessTypeId: pizza.id, name: "Closed For Winter", isActive: false });
});

afterAll(() => ctx.close());

describe("GET /api/business/GetQRCodeImage", () => {
  test("a PNG of the business's subscription link, public, cacheable", async () => {
    const res = await fetchBytes(api.app, `/api/business/GetQRCodeImage?id=${active.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(isPng(res.bytes)).toBe(true);
    expect(res.bytes.length).toBeGreaterThan(500);
    expect(res.bytes.length).toBeLessThan(50_000);
    expect(Number(res.headers.get("content-length"))).toBe(res.bytes.length);
    const img = decodePng(res.bytes);
    expect(img.width).toBe(img.height);
    expect(img.width).toBeGreaterThanOrEqual(300);
    expect(decodeQrPng(res.bytes)).toBe(`${PUBLIC_URL}/subscribe?id=${active.id}`);
    expect(res.headers.get("cache-control")).toBe("public, no-cache");
    expect(res.headers.get("etag")).toMatch(/^"[\w-]{10,}"$/);
  });

  test("If-None-Match with the current ETag answers 304 without a body", async () => {
    const first = await fetchBytes(api.app, `/api/business/GetQRCodeImage?id=${active.id}`);
    const etag = first.headers.get("etag")!;
    const again = await fetchBytes(api.app, `/api/business/GetQRCodeImage?id=${active.id}`, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("public, no-cache");
    const listed = await fetchBytes(api.app, `/api/business/GetQRCodeImage?id=${active.id}`, { "if-none-match": `"nope", W/${etag}` });
    expect(listed.status).toBe(304);
    const stale = await fetchBytes(api.app, `/api/business/GetQRCodeImage?id=${active.id}`, { "if-none-match": '"something-else"' });
    expect(stale.status).toBe(200);
    expect(stale.bytes).toEqual(first.bytes);
  });

  test("another NEARCAST_PUBLIC_URL gives another image", async () => {
    const other = testContext({ NEARCAST_PUBLIC_URL: "https://other.example.org" });
    try {
      const type = insertBusinessType(other);
      const biz = insertBusiness(other, { businessTypeId: type.id });
      const a = await fetchBytes(api.app, `/api/business/GetQRCodeImage?id=${active.id}`);
      const b = await fetchBytes(apiClient(other).app, `/api/business/GetQRCodeImage?id=${biz.id}`);
      expect(biz.id).toBe(active.id); // same id, different base URL
      expect(b.status).toBe(200);
      expect(Buffer.from(b.bytes).equals(Buffer.from(a.bytes))).toBe(false);
      expect(b.headers.get("etag")).not.toBe(a.headers.get("etag"));
      expect(decodeQrPng(b.bytes)).toBe(`https://other.example.org/subscribe?id=${biz.id}`);
    } finally {
      other.close();
    }
  });

  test("unknown and inactive businesses are 404 JSON; a bad id is 400", async () => {
    for (const id of [inactive.id, 999_999]) {
      const res = await api.get(`/api/business/GetQRCodeImage?id=${id}`);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.body).toEqual({ error: "Business not found.", code: "not_found" });
    }
    expect((await api.get("/api/business/GetQRCodeImage?id=abc")).status).toBe(400);
    expect((await api.get("/api/business/GetQRCodeImage")).status).toBe(400);
  });

  test("the image cache is keyed by URL and bounded (least recently used goes first)", async () => {
    const cache = new QrPngCache(2);
    const a1 = await cache.get("https://x.test/subscribe?id=1");
    await cache.get("https://x.test/subscribe?id=2");
    expect(await cache.get("https://x.test/subscribe?id=1")).toBe(a1); // hit, and now most recent
    await cache.get("https://x.test/subscribe?id=3"); // evicts id=2
    expect(cache.size).toBe(2);
    expect(await cache.get("https://x.test/subscribe?id=1")).toBe(a1);
    const again2 = await cache.get("https://x.test/subscribe?id=2");
    expect(again2.url).toBe("https://x.test/subscribe?id=2");
    expect(cache.size).toBe(2);
  });
});

describe("GET /api/business/GetPosterPdf", () => {
  test("the owner gets a PDF poster with the name, deal, link, opt-out note and disclosure", async () => {
    const res = await fetchBytes(api.app, `/api/business/GetPosterPdf?id=${active.id}`, { authorization: `Bearer ${ownerA.token}` });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="nearcast-poster-luigi-s-corner-pizza.pdf"');
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(isPdf(res.bytes)).toBe(true);
    expect(res.bytes.length).toBeLessThan(16_000); // the target is 10 KB: see bench/poster.ts
    const raw = Buffer.from(res.bytes).toString("latin1");
    expect(raw).toContain("/FontFile2"); // the embedded TTF, not a built-in font
    expect(raw).not.toContain("Helvetica");
    const text = pdfText(res.bytes);
    expect(text).toContain("Luigi's Corner Pizza");
    expect(text).toContain("Scan for deals!");
    expect(text).toContain("TODAY'S TREAT");
    expect(text).toContain("Buy one meal, get the second 50% OFF!");
    expect(text).toContain(`${PUBLIC_URL}/subscribe?id=${active.id}`);
    expect(text.replace(/\s*\n\s*/g, " ")).toContain("Scan this QR code to get notified of promotions, offers and deals!");
    expect(text).toContain(UNSUBSCRIBE_NOTE);
    expect(text.replace(/\s*\n\s*/g, " ")).toContain(posterDisclosure(4)); // two lines of fine print
    expect(text).toContain("Terms: deals.example.com/terms · Privacy: deals.example.com/privacy");
    expect(text).toContain("Fresh bread daily"); // the sample product text, as the business form says
  });

  test("with a brand saved, the poster names it beside the credit; Nearcast only in the credit (issue 23)", async () => {
    const pdfOf = async () => pdfText((await fetchBytes(api.app, `/api/business/GetPosterPdf?id=${active.id}`, { authorization: `Bearer ${ownerA.token}` })).bytes);
    expect((await pdfOf()).trimEnd().split("\n").at(-1)).toBe("Powered by Nearcast");
    ctx.repos.settings.save("brandName", "Main Street Deals", ctx.clock.now());
    try {
      const text = await pdfOf();
      expect(text.trimEnd().split("\n").at(-1)).toBe("Main Street Deals · Powered by Nearcast");
      expect(text.match(/Nearcast/g)).toHaveLength(1);
    } finally {
      ctx.repos.settings.remove(["brandName"]);
    }
  });

  test("the owner's poster offer replaces the keyword deal; a cleared one prints no offer at all", async () => {
    const pdfOf = async (id: number) =>
      pdfText((await fetchBytes(api.app, `/api/business/GetPosterPdf?id=${id}`, { authorization: `Bearer ${ownerA.token}` })).bytes);
    const type = insertBusinessType(ctx, { name: "Pizzeria" });
    const own = insertBusiness(ctx, { ownerId: ownerA.id, businessTypeId: type.id, posterOffer: "SLICE DEAL: two slices and a soda for $6" });
    const ownText = await pdfOf(own.id);
    expect(ownText).toContain("SLICE DEAL");
    expect(ownText).toContain("two slices and a soda for $6");
    expect(ownText).not.toContain("TODAY'S TREAT");
    const cleared = insertBusiness(ctx, { ownerId: ownerA.id, businessTypeId: type.id, posterOffer: "" });
    const clearedText = await pdfOf(cleared.id);
    expect(clearedText).toContain("Scan for deals!");
    expect(clearedText).not.toContain("TODAY'S TREAT");
    expect(clearedText).not.toContain("SPECIAL OFFER");
    expect(clearedText).not.toContain("SLICE DEAL");
  });

  test("login required; another owner's business is 404; an admin may print any", async () => {
    expect((await api.get(`/api/business/GetPosterPdf?id=${active.id}`)).status).toBe(401);
    const other = await api.get(`/api/business/GetPosterPdf?id=${active.id}`, { token: ownerB.token });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: "Business not found.", code: "not_found" });
    expect((await api.get("/api/business/GetPosterPdf?id=999999", { token: ownerA.token })).status).toBe(404);
    const asAdmin = await fetchBytes(api.app, `/api/business/GetPosterPdf?id=${active.id}`, { authorization: `Bearer ${admin.token}` });
    expect(asAdmin.status).toBe(200);
    expect(isPdf(asAdmin.bytes)).toBe(true);
  });

  test("an owner can print an inactive business's poster before going live", async () => {
    const res = await fetchBytes(api.app, `/api/business/GetPosterPdf?id=${inactive.id}`, { authorization: `Bearer ${ownerA.token}` });
    expect(res.status).toBe(200);
    expect(pdfText(res.bytes)).toContain("Closed For Winter");
  });
});

describe("poster rendering", () => {
  const base = {
    business: { id: 5, name: "Sunrise Bakery", businessType: { id: 1, name: "Bakery" }, qrMessage: "Fresh deals every morning" },
    url: "https://deals.example.com/subscribe?id=5",
  };

  test("the QR is drawn as rectangles covering exactly the dark modules", async () => {
    const { size, rects } = await qrRects(base.url);
    const expected = QRCode.create(base.url, { errorCorrectionLevel: "M" }).modules;
    expect(size).toBe(expected.size);
    const covered = new Uint8Array(size * size);
    for (const [x, y, w, h] of rects) for (let dy = 0; dy < h; dy++) for (let dx = 0; dx < w; dx++) covered[(y + dy) * size + x + dx]! += 1;
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) expect(covered[y * size + x]).toBe(expected.get(y, x));
    // Merging runs: far fewer rectangles than dark modules.
    const dark = [...expected.data].filter((v) => v).length;
    expect(rects.length).toBeLessThan(dark / 2);
  });

  test("the default deal text, and an uncompressed PDF carries the same words", async () => {
    const pdf = await renderPoster(base, { compress: false });
    expect(isPdf(pdf)).toBe(true);
    const text = pdfText(pdf);
    expect(text).toContain("SPECIAL OFFER");
    expect(text).toContain("25% OFF your next purchase!");
    expect(text).toContain("Fresh deals every morning");
  });

  test("the poster offer and the sample product text, one page with the longest name and message", async () => {
    const long = "The Extraordinarily Long Named Neighbourhood Family Bakery, Patisserie and Coffee House of Springfield";
    const business = { ...base.business, name: long, qrMessage: "q ".repeat(100).trim(), sampleProductText: "Warm croissants", posterOffer: "EARLY BIRD: 2 croissants for $3" };
    const pdf = await renderPoster({ ...base, business }, { compress: false });
    const text = pdfText(pdf);
    expect(text).toContain("Warm croissants");
    expect(text).toContain("EARLY BIRD");
    expect(text).toContain("2 croissants for $3");
    expect(text).not.toContain("SPECIAL OFFER");
    expect(text).toContain("Powered by Nearcast");
    expect(Buffer.from(pdf).toString("latin1").match(/\/Type \/Page\b/g)).toHaveLength(1);
  });

  test("a PNG or JPEG logo is embedded; anything else falls back to the initials", async () => {
    const logo = await renderQrPng("logo", 120);
    const withLogo = Buffer.from(await renderPoster({ ...base, logo })).toString("latin1");
    expect(withLogo).toContain("/Subtype /Image");
    const gif = new TextEncoder().encode("GIF89a....");
    const withGif = await renderPoster({ ...base, logo: gif });
    expect(Buffer.from(withGif).toString("latin1")).not.toContain("/Subtype /Image");
    expect(pdfText(withGif)).toContain("SB");
    const broken = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5, 6]);
    expect(isPdf(await renderPoster({ ...base, logo: broken }))).toBe(true);
  });

  test("a long name wraps onto two lines; a 200-character one is cut with an ellipsis", async () => {
    const long = "The Extraordinarily Long Named Neighbourhood Family Bakery, Patisserie and Coffee House of Springfield";
    const lines = pdfText(await renderPoster({ ...base, business: { ...base.business, name: long } })).split("\n");
    const first = lines.findIndex((l) => l.startsWith("The Extraordinarily"));
    expect(`${lines[first]}${lines[first + 1]}`.replace(/\s+/g, " ")).toBe(long);
    const huge = "Bakery ".repeat(28).trim().slice(0, 200);
    const text = pdfText(await renderPoster({ ...base, business: { ...base.business, name: huge } }));
    const nameLines = text.split("\n").filter((l) => l.startsWith("Bakery Bakery"));
    expect(nameLines.length).toBe(2);
    expect(nameLines[1]!.endsWith("…")).toBe(true);
  });

  test("uploaded logos are read from <dataDir>/uploads only", () => {
    const dir = mkdtempSync(join(tmpdir(), "nearcast-logo-"));
    try {
      mkdirSync(join(dir, "uploads"));
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
      writeFileSync(join(dir, "uploads", "abc123.png"), png);
      writeFileSync(join(dir, "uploads", "note.txt"), "hello");
      writeFileSync(join(dir, "secret.png"), png);
      expect(readUploadedImage(dir, "/uploads/abc123.png")).toEqual(png);
      expect(readUploadedImage(dir, "abc123.png")).toEqual(png);
      expect(readUploadedImage(dir, "https://cdn.example.com/uploads/abc123.png?v=2")).toEqual(png);
      expect(readUploadedImage(dir, "/uploads/note.txt")).toBeNull();
      expect(readUploadedImage(dir, "../secret.png")).toBeNull();
      expect(readUploadedImage(dir, "/uploads/missing.png")).toBeNull();
      expect(readUploadedImage(dir, null)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("helpers: image sniffing and download names", () => {
    expect(imageKind(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpeg");
    expect(imageKind(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe("png");
    expect(imageKind(new TextEncoder().encode("BM......"))).toBeNull();
    expect(posterFileName("Café Olé!")).toBe("nearcast-poster-cafe-ole.pdf");
    expect(posterFileName("!!!")).toBe("nearcast-poster-business.pdf");
  });
});
