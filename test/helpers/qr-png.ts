// Whether a QR PNG from the server encodes a given text: reads the module grid back out of the image (test/helpers/
// png.ts) and compares it, module by module, with what the `qrcode` package lays out for that text.
import QRCode from "qrcode";
import { QR_QUIET_ZONE } from "../../src/services/qr-codes.ts";
import { decodePng } from "./png.ts";

export function qrPngEncodes(png: Uint8Array, text: string): boolean {
  const expected = QRCode.create(text, { errorCorrectionLevel: "M" }).modules;
  const img = decodePng(png);
  const modules = expected.size + 2 * QR_QUIET_ZONE;
  const unit = img.width / modules;
  for (let y = 0; y < modules; y++) {
    for (let x = 0; x < modules; x++) {
      const inside = x >= QR_QUIET_ZONE && y >= QR_QUIET_ZONE && x < modules - QR_QUIET_ZONE && y < modules - QR_QUIET_ZONE;
      const want = inside && expected.get(y - QR_QUIET_ZONE, x - QR_QUIET_ZONE) === 1;
      const dark = img.grey(Math.floor((x + 0.5) * unit), Math.floor((y + 0.5) * unit)) < 128;
      if (dark !== want) return false;
    }
  }
  return true;
}
