import { createHash } from "node:crypto";
import type QRCodeModule from "qrcode";
import { importSeparately } from "../lib/import-separately.ts";
import { subscribeLink } from "../schemas/poster-text.ts";
import type { Repos } from "../repos/index.ts";
import { createBusinessesService } from "./businesses.ts";
import type { SettingsService } from "./settings.ts";

/** Error correction M (15%): survives a scuffed or partly covered poster and keeps the modules large. */
export const QR_ERROR_CORRECTION = "M" as const;
/** Modules of white border the QR spec asks for around the code. */
export const QR_QUIET_ZONE = 4;
/** PNG edge in pixels: sharp on a phone screen and on a printed page up to about 8 cm at 300 dpi. */
export const QR_PNG_WIDTH = 960;
/** Distinct URLs kept in memory: one per active business in practice; the bound keeps memory flat regardless. */
export const QR_CACHE_LIMIT = 512;

export interface QrImage {
  url: string;
  png: Uint8Array;
  etag: string;
}

/** The square module grid of a QR code: `dark(x, y)` for 0 <= x, y < size (no quiet zone). */
export interface QrMatrix {
  size: number;
  dark(x: number, y: number): boolean;
}

// Loaded on first use, from outside the main bundle: the server and the CLI start without paying for it
// (src/lib/import-separately.ts).
let qrcodeModule: Promise<typeof QRCodeModule> | undefined;
export function loadQrcode(): Promise<typeof QRCodeModule> {
  qrcodeModule ??= importSeparately("qrcode").then((m) => m.default);
  return qrcodeModule;
}

export async function qrMatrix(text: string): Promise<QrMatrix> {
  const QRCode = await loadQrcode();
  const { modules } = QRCode.create(text, { errorCorrectionLevel: QR_ERROR_CORRECTION });
  return { size: modules.size, dark: (x, y) => modules.get(y, x) === 1 };
}

export async function renderQrPng(text: string, width = QR_PNG_WIDTH): Promise<Uint8Array> {
  const QRCode = await loadQrcode();
  const buf = await QRCode.toBuffer(text, {
    type: "png",
    errorCorrectionLevel: QR_ERROR_CORRECTION,
    margin: QR_QUIET_ZONE,
    width,
    color: { dark: "#000000ff", light: "#ffffffff" },
  });
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** A small LRU of rendered PNGs keyed by the encoded URL (the business id and the public URL). */
export class QrPngCache {
  private readonly entries = new Map<string, Promise<QrImage>>();
  constructor(readonly limit = QR_CACHE_LIMIT) {}

  get size(): number {
    return this.entries.size;
  }

  get(url: string): Promise<QrImage> {
    const hit = this.entries.get(url);
    if (hit) {
      // Re-insert: Map keeps insertion order, so the first key is always the least recently used.
      this.entries.delete(url);
      this.entries.set(url, hit);
      return hit;
    }
    const made = renderQrPng(url).then((png) => ({ url, png, etag: `"${createHash("sha256").update(png).digest("base64url").slice(0, 27)}"` }));
    // A failed render is not remembered.
    made.catch(() => this.entries.delete(url));
    this.entries.set(url, made);
    while (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return made;
  }
}

export function createQrCodesService({ repos, settings }: { repos: Repos; settings: Pick<SettingsService, "publicUrl"> }) {
  const businesses = createBusinessesService({ repos });
  const cache = new QrPngCache();
  return {
    cache,
    /** The subscription link a business's QR code encodes; `origin` is the request's, when there is one. */
    subscribeUrl(businessId: number, origin?: string | null): string {
      return subscribeLink(settings.publicUrl(origin), businessId);
    },
    /** The QR PNG of an active business; unknown or inactive ids throw NotFoundError. */
    async image(businessId: number, origin?: string | null): Promise<QrImage> {
      const business = businesses.getPublic(businessId);
      return cache.get(subscribeLink(settings.publicUrl(origin), business.id));
    },
  };
}

export type QrCodesService = ReturnType<typeof createQrCodesService>;
