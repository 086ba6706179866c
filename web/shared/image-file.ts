// The browser's checks of an image before it is uploaded: one of JPG, PNG, GIF, BMP and at most 5MB (spec section 9).
// Pure (no React, no requests); each screen passes the messages it shows.
import { IMAGE_TYPES, SNIFF_BYTES, sniffImage } from "../../src/schemas/image-sniff.ts";

/** Spec section 9: 5MB, as the server enforces. */
import { MAX_IMAGE_BYTES } from "../../src/schemas/images.ts";

/** The file picker's filter: the four accepted formats by type and by extension. */
export const IMAGE_ACCEPT = "image/jpeg,image/png,image/gif,image/bmp,.jpg,.jpeg,.png,.gif,.bmp";

/** What a screen says when a file is refused. */
export interface ImageFileMessages {
  /** Not an image of an accepted format (or empty). */
  invalid: string;
  /** Larger than MAX_IMAGE_BYTES. */
  tooLarge: string;
}

const SNIFFED_TYPES = new Set<string>(Object.values(IMAGE_TYPES).map((t) => t.contentType));

function verdict(typeOk: boolean, size: number, messages: ImageFileMessages): string | null {
  if (!typeOk || size === 0) return messages.invalid;
  if (size > MAX_IMAGE_BYTES) return messages.tooLarge;
  return null;
}

async function headOf(file: Blob): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  } catch {
    return null;
  }
}

/**
 * Why `file` cannot be uploaded, or null. Like the server it looks at the first bytes, not the name, so a page saved
 * as .png is caught before it is sent; browsers that cannot read the file fall back to its declared type.
 */
export async function checkImageByContent(file: File, messages: ImageFileMessages): Promise<string | null> {
  if (file.size === 0) return messages.invalid;
  const head = await headOf(file);
  return verdict(head ? sniffImage(head) !== null : SNIFFED_TYPES.has(file.type), file.size, messages);
}
