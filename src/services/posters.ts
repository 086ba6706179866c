// The printable QR poster as a one-page PDF (US Letter). Same words as the print page (src/schemas/poster-text.ts);
// the QR code is drawn as vector rectangles so it stays sharp at any print size and keeps the PDF small (the figures
// are in bench/README.md, Poster PDF).
import { readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type PDFDocumentClass from "pdfkit";
import fontPath from "../assets/fonts/Inter-SemiBold.ttf" with { type: "file" };
import type { Config } from "../config.ts";
import { importSeparately } from "../lib/import-separately.ts";
import type { Repos } from "../repos/index.ts";
import type { PublicBusiness } from "../schemas/businesses.ts";
import { DEFAULT_MESSAGES_PER_WEEK } from "../schemas/businesses.ts";
import { POSTER_WORDS, initials, posterFooter, legalLinks, posterDisclosure, posterOfferDeal, subscribeLink, textToJoinLine } from "../schemas/poster-text.ts";
import { createBusinessesService } from "./businesses.ts";
import type { Principal } from "./principal.ts";
import type { SettingsService } from "./settings.ts";
import { QR_QUIET_ZONE, qrMatrix, renderQrPng } from "./qr-codes.ts";
import { MAX_IMAGE_BYTES } from "../schemas/images.ts";

/** What a poster shows; `logo` is the bytes of a JPEG or PNG (anything else is left out). */
export interface PosterData {
  business: Pick<PublicBusiness, "id" | "name" | "businessType" | "qrMessage"> &
    Partial<Pick<PublicBusiness, "sampleProductText" | "posterOffer" | "messagesPerWeek">>;
  /** The subscribe link the QR code encodes (the public URL's /subscribe?id=…). */
  url: string;
  logo?: Uint8Array | null;
  /** The server's brand (the brandName setting), named beside the software credit. */
  brand?: string;
  joinLine?: string | null; // "or text BAGEL to +1 555 …" (textToJoinLine) under the steps; null: none
}

export interface RenderOptions {
  /** Deflate page content and fonts (default true). Tests turn it off to read the text. */
  compress?: boolean;
  /** "vector" (default) draws the modules; "png" places a QR PNG instead (the benchmark's baseline). */
  qr?: "vector" | "png";
}

const PAGE = { width: 612, height: 792 }; // US Letter, in points
const C = {
  brand: "#0f766e",
  brandDark: "#115e59",
  brandSoft: "#ccfbf1",
  accent: "#f59e0b",
  accentSoft: "#fef3c7",
  ink: "#0f172a",
  ink2: "#334155",
  muted: "#64748b",
  line: "#e2e8f0",
  white: "#ffffff",
};

// ONE embedded TTF (pdfkit's built-in Helvetica is missing from the compiled executable). Heavier display lines are
// the same font filled and stroked ("faux bold"): a second weight would add its glyphs to every poster.
const FONT = "Inter";

// pdfkit is slow to import and large: loaded on the first poster, from outside the main bundle, so neither the server
// nor a CLI command waits for it (src/lib/import-separately.ts).
let pdfkitModule: Promise<typeof PDFDocumentClass> | undefined;
function loadPdfkit(): Promise<typeof PDFDocumentClass> {
  pdfkitModule ??= importSeparately("pdfkit").then((m) => m.default);
  return pdfkitModule;
}
let fontSource: Buffer | object | undefined;

/**
 * The font for a new document. The first document parses the TTF; later ones reuse pdfkit's parsed (fontkit) font
 * object, which pdfkit accepts as a font source, so the glyph and kerning tables are parsed once per process, not
 * once per poster. Falls back to the bytes if pdfkit's internals ever change shape.
 */
function useFont(doc: PDFKit.PDFDocument): void {
  fontSource ??= readFileSync(fontPath);
  doc.registerFont(FONT, fontSource as Buffer);
  doc.font(FONT);
  if (Buffer.isBuffer(fontSource)) {
    const parsed = (doc as unknown as { _font?: { font?: { layout?: unknown } } })._font?.font;
    if (parsed && typeof parsed.layout === "function") fontSource = parsed;
  }
}

/** "jpeg" or "png" from the first bytes; pdfkit embeds only these two. */
export function imageKind(bytes: Uint8Array): "jpeg" | "png" | null {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.length > 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "png";
  return null;
}

interface TextStyle {
  size: number;
  color: string;
  /** Faux-bold stroke width in points (0 = the plain weight). */
  bold?: number;
  width?: number;
  maxLines?: number;
  /** Shrink down to this size (1 pt steps) before cutting the text with an ellipsis. */
  minSize?: number;
  gap?: number;
  /** Wrap into lines of even length (no lone last word). */
  balance?: boolean;
}

/** The largest size from max down to min at which text fits in maxLines lines of the given width. */
function fitSize(doc: PDFKit.PDFDocument, text: string, max: number, min: number, width: number, maxLines: number): number {
  for (let size = max; size > min; size -= 1) {
    doc.fontSize(size);
    if (doc.heightOfString(text, { width }) <= doc.currentLineHeight(true) * maxLines + 0.5) return size;
  }
  return min;
}

/** The narrowest width (within 4 pt) that wraps text into as few lines as the full width does. */
function balancedWidth(doc: PDFKit.PDFDocument, text: string, width: number): number {
  const lines = (w: number) => Math.round(doc.heightOfString(text, { width: w }) / doc.currentLineHeight(true));
  const target = lines(width);
  if (target < 2) return width;
  let lo = width / target;
  let hi = width;
  while (hi - lo > 4) {
    const mid = (lo + hi) / 2;
    if (lines(mid) > target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Centred text, at most maxLines lines (cut with an ellipsis); returns the y below it plus the gap. */
function centred(doc: PDFKit.PDFDocument, text: string, y: number, o: TextStyle): number {
  let width = o.width ?? 500;
  const maxLines = o.maxLines ?? 1;
  const size = o.minSize ? fitSize(doc, text, o.size, o.minSize, width, maxLines) : o.size;
  doc.fontSize(size).fillColor(o.color);
  const lineHeight = doc.currentLineHeight(true);
  if (o.balance) width = balancedWidth(doc, text, width);
  const x = (PAGE.width - width) / 2;
  const height = Math.min(doc.heightOfString(text, { width }), lineHeight * maxLines);
  if (o.bold) doc.lineWidth(o.bold).lineJoin("round").strokeColor(o.color);
  doc.text(text, x, y, { width, align: "center", height: lineHeight * maxLines, ellipsis: true, fill: true, stroke: !!o.bold });
  return y + height + (o.gap ?? 0);
}

/**
 * The QR modules as vectors: each horizontal run of dark modules is one rectangle, and a run repeated on the rows
 * below grows into a taller rectangle. Drawn in module units inside a scaled frame, so coordinates are small integers.
 */
export async function qrRects(url: string): Promise<{ size: number; rects: [number, number, number, number][] }> {
  const qr = await qrMatrix(url);
  const open = new Map<string, [number, number, number, number]>(); // "x,w" -> rect still growing downwards
  const rects: [number, number, number, number][] = [];
  for (let row = 0; row < qr.size; row++) {
    const seen = new Set<string>();
    let col = 0;
    while (col < qr.size) {
      if (!qr.dark(col, row)) {
        col++;
        continue;
      }
      const start = col;
      while (col < qr.size && qr.dark(col, row)) col++;
      const key = `${start},${col - start}`;
      seen.add(key);
      const rect = open.get(key);
      if (rect) rect[3] += 1;
      else {
        const made: [number, number, number, number] = [start, row, col - start, 1];
        open.set(key, made);
        rects.push(made);
      }
    }
    for (const key of [...open.keys()]) if (!seen.has(key)) open.delete(key);
  }
  return { size: qr.size, rects };
}

function drawQrVector(doc: PDFKit.PDFDocument, qr: Awaited<ReturnType<typeof qrRects>>, x: number, y: number, size: number): void {
  const unit = size / (qr.size + 2 * QR_QUIET_ZONE);
  doc.save();
  doc.translate(x + unit * QR_QUIET_ZONE, y + unit * QR_QUIET_ZONE).scale(unit);
  for (const [rx, ry, rw, rh] of qr.rects) doc.rect(rx, ry, rw, rh);
  doc.fill(C.ink);
  doc.restore();
}

function drawLogo(doc: PDFKit.PDFDocument, data: PosterData, cx: number, top: number, box: number): void {
  const x = cx - box / 2;
  doc.roundedRect(x, top, box, box, 16).fill(C.white);
  const logo = data.logo && imageKind(data.logo) ? data.logo : null;
  if (logo) {
    try {
      const pad = 6;
      doc.image(Buffer.from(logo.buffer, logo.byteOffset, logo.byteLength), x + pad, top + pad, {
        fit: [box - 2 * pad, box - 2 * pad],
        align: "center",
        valign: "center",
      });
      return;
    } catch {
      // A damaged image: fall back to the initials.
    }
  }
  const letters = initials(data.business.name, 2);
  const size = letters.length > 1 ? 28 : 34;
  doc.fontSize(size);
  centred(doc, letters, top + (box - doc.currentLineHeight()) / 2, { size, color: C.brand, bold: 0.8, width: box });
}

/** Renders the poster; resolves to the PDF bytes. */
export async function renderPoster(data: PosterData, options: RenderOptions = {}): Promise<Uint8Array> {
  const PDFDocument = await loadPdfkit();
  const qrPng = options.qr === "png" ? await renderQrPng(data.url, 600) : null;
  const qrVector = qrPng ? null : await qrRects(data.url);
  const doc = new PDFDocument({
    size: "LETTER",
    margin: 0,
    compress: options.compress ?? true,
    // No built-in font: pdfkit would load Helvetica, which the compiled executable does not carry.
    font: null as unknown as string,
    autoFirstPage: false,
    info: { Title: `${data.business.name} - QR poster`, Producer: "Nearcast", Creator: "Nearcast" },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  doc.addPage({ size: "LETTER", margin: 0 });
  useFont(doc);

  const W = PAGE.width;
  const typeName = data.business.businessType?.name ?? "";
  const deal = posterOfferDeal(data.business.posterOffer, typeName);

  // Header band: logo, business name, type.
  // Header band: logo, business name (up to two lines), type. A two-line name makes the band taller, the QR smaller.
  const name = data.business.name;
  const nameStyle: TextStyle = { size: 30, minSize: 18, bold: 0.9, color: C.white, width: 540, maxLines: 2, balance: true };
  doc.fontSize(fitSize(doc, name, nameStyle.size, nameStyle.minSize!, 540, 2));
  const nameHeight = Math.min(doc.heightOfString(name, { width: 540 }), doc.currentLineHeight(true) * 2);
  const band = Math.max(170, Math.ceil(102 + nameHeight + 3 + (typeName ? 28 : 12)));
  doc.rect(0, 0, W, band).fill(C.brand);
  drawLogo(doc, data, W / 2, 24, 68);
  let y = centred(doc, name, 102, nameStyle);
  if (typeName) centred(doc, typeName.toUpperCase(), Math.max(y + 3, 142), { size: 10.5, color: C.brandSoft, width: 520 });

  // Headline.
  y = centred(doc, POSTER_WORDS.headline, band + 20, { size: 50, bold: 1.6, color: C.ink, width: 572, gap: 0 });
  y = centred(doc, POSTER_WORDS.subheadline, y, { size: 13.5, color: C.ink2, width: 470, maxLines: 2, gap: 14, balance: true });

  // The QR code on a white card inside a brand-coloured frame.
  // The sample product line below takes its height from the QR, so the footer stays on the page.
  const product = data.business.sampleProductText?.trim();
  const qrSize = 248 - (band - 170) - (product ? 18 : 0);
  const frame = 10;
  const qrX = (W - qrSize) / 2;
  doc.roundedRect(qrX - frame, y, qrSize + 2 * frame, qrSize + 2 * frame, 20).fill(C.brand);
  doc.roundedRect(qrX - frame + 6, y + 6, qrSize + 2 * frame - 12, qrSize + 2 * frame - 12, 14).fill(C.white);
  if (qrPng) doc.image(Buffer.from(qrPng.buffer, qrPng.byteOffset, qrPng.byteLength), qrX, y + frame, { width: qrSize, height: qrSize });
  else if (qrVector) drawQrVector(doc, qrVector, qrX, y + frame, qrSize);
  y += qrSize + 2 * frame + 12;

  // The business's QR message.
  y = centred(doc, data.business.qrMessage, y, { size: 15, minSize: 11, bold: 0.25, color: C.ink, width: 470, maxLines: 2, gap: 12, balance: true });

  // The owner's sample product, as the business form promises.
  if (product) y = centred(doc, product, y - 4, { size: 12, minSize: 9, color: C.brandDark, width: 470, gap: 8 });

  // The offer on an accent ribbon; none when the owner cleared it.
  if (deal) {
    const dealW = 476;
    const dealX = (W - dealW) / 2;
    const dealH = deal.label ? 62 : 46;
    doc.roundedRect(dealX, y, dealW, dealH, 12).fill(C.accent);
    let dy = y + 9;
    if (deal.label) dy = centred(doc, deal.label, dy, { size: 10.5, color: C.ink, width: dealW - 32, gap: 2 });
    centred(doc, deal.offer, dy, { size: 19, minSize: 12, bold: 0.6, color: C.ink, width: dealW - 32 });
    y += dealH + 14;
  }

  // Three steps.
  const stepW = 150;
  const stepsX = (W - stepW * POSTER_WORDS.steps.length) / 2;
  POSTER_WORDS.steps.forEach((step, i) => {
    const sx = stepsX + i * stepW;
    doc.circle(sx + 12, y + 10, 10).fill(C.brandSoft);
    doc.fontSize(11).fillColor(C.brandDark).text(String(i + 1), sx + 2, y + 3.5, { width: 20, align: "center", lineBreak: false });
    doc.fillColor(C.ink2).text(step, sx + 28, y + 3.5, { width: stepW - 30, lineBreak: false });
  });
  y += 32;
  if (data.joinLine) y = centred(doc, data.joinLine, y - 8, { size: 13, minSize: 9, bold: 0.4, color: C.brandDark, width: 520, gap: 8 });

  // Footer: the link for people without a camera, the opt-out note, the carrier disclosure.
  doc.moveTo(72, y).lineTo(W - 72, y).lineWidth(0.75).stroke(C.line);
  y += 10;
  y = centred(doc, `${POSTER_WORDS.linkLabel} ${data.url}`, y, { size: 10, minSize: 7, color: C.ink2, width: 520, gap: 3 });
  y = centred(doc, POSTER_WORDS.unsubscribeNote, y, { size: 10, color: C.ink, width: 520, gap: 3 });
  y = centred(doc, posterDisclosure(data.business.messagesPerWeek ?? DEFAULT_MESSAGES_PER_WEEK), y, { size: 9, minSize: 8, color: C.muted, width: 520, maxLines: 2, gap: 3 });
  y = centred(doc, legalLinks(data.url.replace(/\/subscribe\?.*$/, ""), data.business.id), y, { size: 8, minSize: 6.5, color: C.muted, width: 520, gap: 3 });
  centred(doc, posterFooter(data.brand ?? ""), Math.max(y + 4, PAGE.height - 22), { size: 7.5, color: C.muted, width: 400 });

  doc.end();
  await done;
  const out = Buffer.concat(chunks);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** A file name for the download: "nearcast-poster-sunrise-bakery.pdf". */
export function posterFileName(name: string): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `nearcast-poster-${slug || "business"}.pdf`;
}

/**
 * The bytes of an uploaded logo, or null. Upload paths are stored as "/uploads/<random name>" (or a URL ending in
 * it): only the file name is used, and only a file inside <dataDir>/uploads is read — never a remote URL.
 */
export function readUploadedImage(dataDir: string, imagePath: string | null | undefined): Uint8Array | null {
  if (!imagePath) return null;
  const name = basename(imagePath.split(/[?#]/, 1)[0] ?? "");
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/.test(name)) return null;
  const file = join(dataDir, "uploads", name);
  try {
    if (statSync(file).size > MAX_IMAGE_BYTES) return null;
    const bytes = new Uint8Array(readFileSync(file));
    return imageKind(bytes) ? bytes : null;
  } catch {
    return null;
  }
}

export interface PostersDeps {
  repos: Repos;
  config: Pick<Config, "dataDir">;
  settings: Pick<SettingsService, "publicUrl" | "current">;
}

export function createPostersService({ repos, config, settings }: PostersDeps) {
  const businesses = createBusinessesService({ repos });
  const { dataDir } = config;
  function poster(business: PublicBusiness, options: RenderOptions & { origin?: string | null } = {}) {
    const data: PosterData = {
      business,
      url: subscribeLink(settings.publicUrl(options.origin), business.id),
      logo: readUploadedImage(dataDir, business.logoImagePath),
      brand: settings.current().brandName,
      joinLine: textToJoinLine(business.keyword, settings.current().twilio?.from),
    };
    return renderPoster(data, options).then((pdf) => ({ pdf, fileName: posterFileName(business.name), business }));
  }
  return {
    /**
     * The poster of a business the actor manages, active or not (the owner's, an admin's, the operator's); someone
     * else's business is NotFoundError. `origin`: the request's, for the link when no public URL is set.
     */
    forUser(actor: Principal, businessId: number, options?: RenderOptions & { origin?: string | null }) {
      return poster(businesses.get(actor, businessId), options);
    },
  };
}

export type PostersService = ReturnType<typeof createPostersService>;
