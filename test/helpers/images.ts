// Tiny real images of every accepted type, built in code (no binary fixtures), plus files that only pretend to be
// images. The PNG and BMP builders take a size and colours, so screenshots can use them too.
import { deflateSync } from "node:zlib";

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

export type Rgb = [number, number, number];
/** Colour of pixel (x, y). */
export type Painter = (x: number, y: number) => Rgb;

const solid =
  (rgb: Rgb): Painter =>
  () =>
    rgb;

/** A truecolour PNG, `width` x `height`, painted pixel by pixel. */
export function png(width = 2, height = 2, paint: Painter = solid([15, 118, 110])): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk("IHDR", ihdr),
      pngChunk("IDAT", deflateSync(raw)),
      pngChunk("IEND", new Uint8Array(0)),
    ]),
  );
}

/** A 24-bit BMP (BITMAPINFOHEADER, bottom-up rows padded to 4 bytes). */
export function bmp(width = 2, height = 2, paint: Painter = solid([245, 158, 11])): Uint8Array {
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const size = 54 + rowSize * height;
  const out = Buffer.alloc(size);
  out.write("BM", 0, "ascii");
  out.writeUInt32LE(size, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  out.writeUInt32LE(rowSize * height, 34);
  for (let y = 0; y < height; y++) {
    const row = 54 + (height - 1 - y) * rowSize;
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      out[row + x * 3] = b;
      out[row + x * 3 + 1] = g;
      out[row + x * 3 + 2] = r;
    }
  }
  return new Uint8Array(out);
}

/** A 1x1 transparent GIF89a. */
export const GIF = new Uint8Array(Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64"));

/** A 2x2 baseline JPEG (as chromium's canvas encodes it). */
export const JPEG = new Uint8Array(
  Buffer.from(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAAAwX/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCUAZHf/9k=",
    "base64",
  ),
);

export const PNG = png();
export const BMP = bmp();

/** One valid image of each accepted type, with the content type the server must report. */
export const REAL_IMAGES = [
  { name: "jpeg", bytes: JPEG, contentType: "image/jpeg", ext: "jpg" },
  { name: "png", bytes: PNG, contentType: "image/png", ext: "png" },
  { name: "gif", bytes: GIF, contentType: "image/gif", ext: "gif" },
  { name: "bmp", bytes: BMP, contentType: "image/bmp", ext: "bmp" },
] as const;

/** `head` followed by zero bytes up to exactly `size` bytes (a valid header, then padding). */
export function padded(head: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  out.set(head.subarray(0, Math.min(head.length, size)));
  return out;
}

const text = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));

/** Files that are not images, whatever their name or declared type claims. */
export const DISGUISED = [
  { name: "HTML renamed .png", bytes: text("<!doctype html><html><body><script>alert(1)</script></body></html>"), filename: "cat.png", type: "image/png" },
  {
    name: "SVG (with a script)",
    bytes: text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'),
    filename: "logo.svg",
    type: "image/svg+xml",
  },
  { name: "zero bytes", bytes: new Uint8Array(0), filename: "empty.jpg", type: "image/jpeg" },
  { name: "truncated PNG header", bytes: PNG.subarray(0, 12), filename: "cut.png", type: "image/png" },
  { name: "truncated GIF header", bytes: GIF.subarray(0, 8), filename: "cut.gif", type: "image/gif" },
  { name: "JPEG magic only", bytes: JPEG.subarray(0, 3), filename: "cut.jpg", type: "image/jpeg" },
  { name: "text starting with BM", bytes: text("BMW 320i, low mileage, one owner, full service history."), filename: "car.bmp", type: "image/bmp" },
  { name: "PDF renamed .jpg", bytes: text("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n"), filename: "menu.jpg", type: "image/jpeg" },
  { name: "WebP (not an accepted type)", bytes: text("RIFF\u0024\u0000\u0000\u0000WEBPVP8 \u0018\u0000\u0000\u0000"), filename: "photo.webp", type: "image/webp" },
] as const;

/** A multipart body with `bytes` in field `field` (named and typed as the client claims). */
export function imageForm(bytes: Uint8Array, filename = "image.png", type = "image/png", field = "file"): FormData {
  const form = new FormData();
  form.append(field, new File([new Uint8Array(bytes)], filename, { type }));
  return form;
}
