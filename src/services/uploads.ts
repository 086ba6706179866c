// Business images on disk: content-sniffed, size-capped while reading, stored under random names in
// <dataDir>/uploads, recorded in the uploads table (owner, kind, content type, size) and served at /uploads/<name>.
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config.ts";
import { ConflictError, NotFoundError, PayloadTooLargeError, ValidationError } from "../errors.ts";
import { SNIFF_BYTES, type SniffedImage, sniffImage } from "../schemas/image-sniff.ts";
import type { Repos } from "../repos/index.ts";
import type { UploadKind, UploadRow } from "../repos/uploads.ts";
import type { UserRow } from "../repos/users.ts";

/** Spec section 9: 5MB. */
import { MAX_IMAGE_BYTES } from "../schemas/images.ts";
import { IMAGE_TOO_LARGE, INVALID_IMAGE } from "../schemas/texts.ts";
export const IMAGE_NOT_FOUND = "Image not found.";
export const INVALID_FILE_NAME = "Invalid file name. Use the name returned by the upload, without any folder.";
export const IMAGE_IN_USE = "This image is used by a business. Choose another image for the business first.";

/** The URL path every stored image is served at. */
export const UPLOADS_URL_PREFIX = "/uploads/";

// What this service writes: 32 hex characters and the sniffed extension. Anything else is not ours.
const STORED_NAME = /^[0-9a-f]{32}\.(jpg|png|gif|bmp)$/;

/** The stored file name in `value` ("<name>" or "/uploads/<name>"), or null when it is not one of ours. */
export function storedFileName(value: string): string | null {
  const name = value.startsWith(UPLOADS_URL_PREFIX) ? value.slice(UPLOADS_URL_PREFIX.length) : value;
  return STORED_NAME.test(name) ? name : null;
}

export function uploadPath(fileName: string): string {
  return `${UPLOADS_URL_PREFIX}${fileName}`;
}

export interface StoredImage {
  /** The public URL path, e.g. /uploads/3f...a1.png: what the API returns and businesses store. */
  filePath: string;
  fileName: string;
  contentType: string;
  size: number;
}

export interface ServableImage {
  /** Absolute path on disk. */
  path: string;
  contentType: string;
  size: number;
}

function notFound(): never {
  throw new NotFoundError(IMAGE_NOT_FOUND);
}

export function createUploadsService({ repos, config }: { repos: Repos; config: Config }) {
  const dir = join(config.dataDir, "uploads");

  function fileOf(fileName: string): string {
    return join(dir, fileName);
  }

  /**
   * Reads an image from `chunks`, stopping as soon as it is known to be refused: the first bytes are not a
   * JPEG/PNG/GIF/BMP (400), or it grows past MAX_IMAGE_BYTES (413). Nothing touches the disk until the whole file
   * is in and accepted; then it is written under a random name (temp file + rename) and recorded.
   */
  async function save(ownerId: number, kind: UploadKind, chunks: AsyncIterable<Uint8Array>): Promise<StoredImage> {
    const parts: Uint8Array[] = [];
    let size = 0;
    let image: SniffedImage | null = null;
    const head = () => Buffer.concat(parts, Math.min(size, SNIFF_BYTES)).subarray(0, SNIFF_BYTES);
    const refuse = (): never => {
      throw new ValidationError(INVALID_IMAGE, { file: INVALID_IMAGE });
    };

    for await (const chunk of chunks) {
      if (chunk.length === 0) continue;
      size += chunk.length;
      if (size > MAX_IMAGE_BYTES) throw new PayloadTooLargeError(IMAGE_TOO_LARGE);
      parts.push(chunk);
      if (!image && size >= SNIFF_BYTES) image = sniffImage(head()) ?? refuse();
    }
    if (!image) image = (size > 0 ? sniffImage(head()) : null) ?? refuse();

    mkdirSync(dir, { recursive: true });
    const fileName = `${randomBytes(16).toString("hex")}.${image.ext}`;
    const target = fileOf(fileName);
    const temp = join(dir, `.${fileName}.part`);
    try {
      await Bun.write(temp, Buffer.concat(parts, size));
      renameSync(temp, target);
      repos.uploads.insert({ ownerId, fileName, kind, contentType: image.contentType, size });
    } catch (e) {
      for (const f of [temp, target]) rmQuiet(f);
      throw e;
    }
    return { filePath: uploadPath(fileName), fileName, contentType: image.contentType, size };
  }

  return {
    /** <dataDir>/uploads */
    dir,
    save,
    /** Convenience for callers that already hold the bytes (CLI, tests). */
    saveBytes(ownerId: number, kind: UploadKind, bytes: Uint8Array): Promise<StoredImage> {
      return save(ownerId, kind, (async function* () {
        yield bytes;
      })());
    },

    /**
     * Deletes one of the caller's images of this kind. `rawName` must be a bare stored name (or its /uploads/ path):
     * anything with another folder, dots or backslashes is a 400; someone else's image (unless admin) or an image of
     * another kind is a 404; an image a business still shows is a 409. Nothing is deleted on any refusal.
     */
    remove(user: UserRow, kind: UploadKind, rawName: string | undefined): void {
      if (rawName === undefined || rawName === "") {
        throw new ValidationError("The fileName parameter is required.", { fileName: "required" });
      }
      const fileName = storedFileName(rawName);
      if (!fileName) throw new ValidationError(INVALID_FILE_NAME, { fileName: "invalid" });
      const row = repos.uploads.findByFileName(fileName);
      if (!row || row.kind !== kind || (row.ownerId !== user.id && user.role !== "admin")) notFound();
      repos.transaction(() => {
        if (repos.uploads.countBusinessReferences(uploadPath(fileName)) > 0) throw new ConflictError(IMAGE_IN_USE);
        repos.uploads.delete(fileName);
      });
      rmQuiet(fileOf(fileName));
    },

    /** The file behind a public name, for serving; null when it is not a stored image (or its file is gone). */
    open(rawName: string): ServableImage | null {
      const fileName = storedFileName(rawName);
      if (!fileName) return null;
      const row = repos.uploads.findByFileName(fileName);
      if (!row) return null;
      const path = fileOf(fileName);
      try {
        const st = statSync(path);
        return st.isFile() ? { path, contentType: row.contentType, size: st.size } : null;
      } catch {
        return null;
      }
    },

    /** The upload row behind a stored path ("/uploads/<name>"), if any. */
    find(filePath: string): UploadRow | undefined {
      const fileName = storedFileName(filePath);
      return fileName ? repos.uploads.findByFileName(fileName) : undefined;
    },

    /** Absolute path on disk for a stored path (QR posters and media URLs use it); null if not one of ours. */
    localPath(filePath: string): string | null {
      const fileName = storedFileName(filePath);
      return fileName ? fileOf(fileName) : null;
    },
  };
}

function rmQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}

export type UploadsService = ReturnType<typeof createUploadsService>;
