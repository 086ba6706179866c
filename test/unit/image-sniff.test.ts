import { describe, expect, test } from "bun:test";
import { SNIFF_BYTES, sniffImage } from "../../src/schemas/image-sniff.ts";
import { bmp, DISGUISED, padded, png, REAL_IMAGES } from "../helpers/images.ts";

describe("sniffImage", () => {
  for (const img of REAL_IMAGES) {
    test(`recognises ${img.name} from its first ${SNIFF_BYTES} bytes`, () => {
      expect(sniffImage(img.bytes.subarray(0, SNIFF_BYTES))).toMatchObject({ contentType: img.contentType, ext: img.ext });
      expect(sniffImage(img.bytes)).toMatchObject({ contentType: img.contentType });
    });
    test(`${img.name}: a valid header followed by padding is still that type`, () => {
      expect(sniffImage(padded(img.bytes, 4096))?.contentType).toBe(img.contentType);
    });
  }

  for (const fake of DISGUISED) {
    test(`refuses ${fake.name}`, () => {
      expect(sniffImage(fake.bytes)).toBeNull();
    });
  }

  test("refuses every cut of a PNG or BMP inside its fixed header", () => {
    const p = png(3, 5);
    for (let n = 0; n < 24; n++) expect(sniffImage(p.subarray(0, n))).toBeNull();
    expect(sniffImage(p.subarray(0, 24))?.ext).toBe("png");
    const b = bmp(3, 5);
    for (let n = 0; n < 28; n++) expect(sniffImage(b.subarray(0, n))).toBeNull();
    expect(sniffImage(b.subarray(0, 28))?.ext).toBe("bmp");
  });

  test("refuses a PNG with a zero size or a wrong first chunk", () => {
    const zero = png(1, 1).slice();
    zero.set([0, 0, 0, 0], 16);
    expect(sniffImage(zero)).toBeNull();
    const wrong = png(1, 1).slice();
    wrong.set([0x74, 0x45, 0x58, 0x74], 12); // tEXt instead of IHDR
    expect(sniffImage(wrong)).toBeNull();
  });

  test("refuses a JPEG SOI not followed by a marker", () => {
    expect(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0x00, 1, 2, 3]))).toBeNull();
    expect(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xdb, 0, 0x43]))?.ext).toBe("jpg");
  });

  test("refuses a BMP with an unknown DIB header size or several planes", () => {
    const odd = bmp(2, 2).slice();
    odd.set([41, 0, 0, 0], 14);
    expect(sniffImage(odd)).toBeNull();
    const planes = bmp(2, 2).slice();
    planes.set([2, 0], 26);
    expect(sniffImage(planes)).toBeNull();
  });
});
