// A broadcast's image: checked by its content and size before anything is stored, stored under the business's
// owner, and removed again when the broadcast is not written after all.
import { unlinkSync } from "node:fs";
import { PayloadTooLargeError, ValidationError } from "../../errors.ts";
import type { Repos } from "../../repos/index.ts";
import { SNIFF_BYTES, sniffImage } from "../../schemas/image-sniff.ts";
import { MAX_IMAGE_BYTES } from "../../schemas/images.ts";
import { BROADCAST_IMAGE_TOO_LARGE, BROADCAST_INVALID_IMAGE } from "../../schemas/texts.ts";
import type { UploadsService } from "../uploads.ts";

/** Checks the image by its content (JPEG, PNG, GIF, BMP) and size, before anything is stored. */
export function checkBroadcastImage(bytes: Uint8Array): void {
  if (bytes.length > MAX_IMAGE_BYTES) throw new PayloadTooLargeError(BROADCAST_IMAGE_TOO_LARGE);
  if (!sniffImage(bytes.subarray(0, SNIFF_BYTES))) {
    throw new ValidationError(BROADCAST_INVALID_IMAGE, { Image: BROADCAST_INVALID_IMAGE });
  }
}

/** The uploads service speaks the business form's texts; a broadcast has its own (spec section 5). */
export function withImageErrors<T>(p: Promise<T>): Promise<T> {
  return p.catch((e: unknown) => {
    if (e instanceof PayloadTooLargeError) throw new PayloadTooLargeError(BROADCAST_IMAGE_TOO_LARGE);
    if (e instanceof ValidationError && e.fields?.file) {
      throw new ValidationError(BROADCAST_INVALID_IMAGE, { Image: BROADCAST_INVALID_IMAGE });
    }
    throw e;
  });
}

export function broadcastImages(repos: Repos, uploads: UploadsService) {
  /** Removes an image stored for a broadcast that was not written after all. */
  function discard(filePath: string): void {
    const upload = uploads.find(filePath);
    const path = uploads.localPath(filePath);
    if (upload) repos.uploads.delete(upload.fileName);
    if (path) {
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    }
  }

  return {
    /** Stores the image under the business owner (it is the owner's broadcast, whoever pressed Send); null for none. */
    async store(ownerId: number, image: Uint8Array | null): Promise<string | null> {
      return image ? (await uploads.saveBytes(ownerId, "broadcast", image)).filePath : null;
    },

    /** Runs `write` with the stored image; the image goes again when the write fails or writes nothing (null). */
    async writeOrDiscard<T>(imagePath: string | null, write: () => T | Promise<T>): Promise<T> {
      let written: T;
      try {
        written = await write();
      } catch (e) {
        if (imagePath) discard(imagePath);
        throw e;
      }
      if (written === null && imagePath) discard(imagePath);
      return written;
    },
  };
}

export type BroadcastImages = ReturnType<typeof broadcastImages>;
