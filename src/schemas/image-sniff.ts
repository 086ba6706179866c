// Recognises the four accepted image formats from their first bytes, never from a name or a declared type.
// Pure (no I/O): shared by the upload service and the browser's pre-upload check.

export type ImageKind = "jpeg" | "png" | "gif" | "bmp";

export interface SniffedImage {
  kind: ImageKind;
  contentType: "image/jpeg" | "image/png" | "image/gif" | "image/bmp";
  /** The extension stored files get. */
  ext: "jpg" | "png" | "gif" | "bmp";
}

/** How many leading bytes sniffImage needs to decide (fewer is a "no"). */
export const SNIFF_BYTES = 32;

export const IMAGE_TYPES: Record<ImageKind, SniffedImage> = {
  jpeg: { kind: "jpeg", contentType: "image/jpeg", ext: "jpg" },
  png: { kind: "png", contentType: "image/png", ext: "png" },
  gif: { kind: "gif", contentType: "image/gif", ext: "gif" },
  bmp: { kind: "bmp", contentType: "image/bmp", ext: "bmp" },
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
// BITMAPCOREHEADER, BITMAPINFOHEADER and its successors (V2, V3, OS/2 v2, V4, V5).
const BMP_DIB_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((b, i) => bytes[at + i] === b);
}

function ascii(bytes: Uint8Array, at: number, text: string): boolean {
  return startsWith(
    bytes,
    [...text].map((c) => c.charCodeAt(0)),
    at,
  );
}

function u32le(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

function u32be(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
}

function u16le(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8);
}

/**
 * The image format of `head` (the first bytes of a file), or null when it is none of JPEG, PNG, GIF, BMP.
 * Beyond the magic number each format's fixed header is checked, so a file cut off inside its header, or text that
 * merely starts with "BM", is refused.
 */
export function sniffImage(head: Uint8Array): SniffedImage | null {
  // JPEG: SOI marker FF D8, then the next marker (FF xx); files start with APPn, DQT, SOF or COM.
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    const marker = head[3]!;
    if ((marker >= 0xe0 && marker <= 0xef) || marker === 0xdb || marker === 0xfe || (marker >= 0xc0 && marker <= 0xcf)) {
      return IMAGE_TYPES.jpeg;
    }
    return null;
  }
  // PNG: 8-byte signature, then the IHDR chunk (length 13) with a non-zero width and height.
  if (startsWith(head, PNG_SIGNATURE)) {
    if (head.length < 24 || u32be(head, 8) !== 13 || !ascii(head, 12, "IHDR")) return null;
    return u32be(head, 16) > 0 && u32be(head, 20) > 0 ? IMAGE_TYPES.png : null;
  }
  // GIF: "GIF87a" / "GIF89a", then the logical screen descriptor (13 bytes in all) with a non-zero size.
  if (ascii(head, 0, "GIF87a") || ascii(head, 0, "GIF89a")) {
    if (head.length < 13) return null;
    return u16le(head, 6) > 0 && u16le(head, 8) > 0 ? IMAGE_TYPES.gif : null;
  }
  // BMP: "BM", a file header (14 bytes) whose reserved fields are zero, a known DIB header size, one colour plane.
  if (ascii(head, 0, "BM")) {
    if (head.length < 26) return null;
    if (u16le(head, 6) !== 0 || u16le(head, 8) !== 0) return null;
    const dibSize = u32le(head, 14);
    if (!BMP_DIB_SIZES.has(dibSize)) return null;
    const planes = dibSize === 12 ? u16le(head, 22) : u16le(head, 26);
    if (dibSize !== 12 && head.length < 28) return null;
    const pixelOffset = u32le(head, 10);
    return planes === 1 && pixelOffset >= 14 + dibSize ? IMAGE_TYPES.bmp : null;
  }
  return null;
}
