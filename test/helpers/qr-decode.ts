// Reads a QR code PNG back to its text with jsQR, an independent decoder (not our own encoder run twice), so a test
// checks what a phone's camera would open.
import jsQR from "jsqr";
import { decodePng } from "./png.ts";

/** The text the QR code in this PNG encodes; throws when no code can be read. */
export function decodeQrPng(png: Uint8Array): string {
  const img = decodePng(png);
  const rgba = new Uint8ClampedArray(img.width * img.height * 4);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const o = (y * img.width + x) * 4;
      const g = img.grey(x, y);
      rgba[o] = rgba[o + 1] = rgba[o + 2] = g;
      rgba[o + 3] = 255;
    }
  }
  const code = jsQR(rgba, img.width, img.height);
  if (!code) throw new Error("no QR code found in the PNG");
  return code.data;
}
