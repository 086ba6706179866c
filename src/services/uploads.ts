// Business images on disk: content-sniffed, size-capped while reading, stored under random names in
// <dataDir>/uploads, recorded in the uploads table (owner, kind, content type, size) and served at /uploads/<name>.
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, statSync, unlinkSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { AppError, ConflictError, DiskFullError, NotFoundError, PayloadTooLargeError, ValidationError } from "../errors.ts";
import type { DiskSpace } from "../lib/disk-space.ts";
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

/** Unreferenced uploads (no business, no broadcast) are deleted this long after they were made: time enough to
 * upload an image and then save the form that uses it. */
export const UNREFERENCED_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

const MB = 1024 * 1024;

/** "198.3 MB": one decimal, so an owner near the quota sees it move. */
export function megabytes(bytes: number): string {
  return `${(bytes / MB).toFixed(1).replace(/\.0$/, "")} MB`;
}

export function quotaExceededMessage(usedBytes: number, quotaMb: number): string {
  return `Your uploads use ${megabytes(usedBytes)} of your ${quotaMb} MB. Delete an image or ask the admin for more room.`;
}

/** An upload that would take its owner over the upload quota (the uploadQuotaMb setting): 413, quota_exceeded. */
export class QuotaExceededError extends AppError {
  constructor(usedBytes: number, quotaMb: number) {
    super(413, "quota_exceeded", quotaExceededMessage(usedBytes, quotaMb));
  }
}

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

export interface UploadsDeps {
  repos: Repos;
  config: Pick<Config, "dataDir">;
  clock: Clock;
  /** Each owner's quota in MB now (the uploadQuotaMb setting, read at each upload so a change applies at once). */
  quotaMb: () => number;
  /** Free room on the data dir's disk; absent = not checked (SQLite's own error is then the guard). */
  diskSpace?: DiskSpace;
}

export function createUploadsService({ repos, config, clock, quotaMb, diskSpace }: UploadsDeps) {
  const dir = join(config.dataDir, "uploads");

  /** Refuses an image of `size` bytes that would take `ownerId` over the quota. */
  function checkQuota(ownerId: number, size: number): void {
    const quota = quotaMb();
    const used = repos.uploads.totalSizeByOwner(ownerId);
    if (used + size > quota * MB) throw new QuotaExceededError(used, quota);
  }

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

    // Both checks before a byte is written; the quota is checked again below, in the transaction that records the
    // row, so two uploads at once cannot both squeeze under it.
    checkQuota(ownerId, size);
    if (diskSpace && !diskSpace.hasRoomFor(size)) throw new DiskFullError();

    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const fileName = `${randomBytes(16).toString("hex")}.${image.ext}`;
    const target = fileOf(fileName);
    const temp = join(dir, `.${fileName}.part`);
    try {
      // 0600: only the user running nearcast reads the data dir (the umask says so too; this holds whatever it is).
      await writeFile(temp, Buffer.concat(parts, size), { mode: 0o600 });
      renameSync(temp, target);
      const contentType = image.contentType;
      repos.transaction(() => {
        checkQuota(ownerId, size);
        repos.uploads.insert({ ownerId, fileName, kind, contentType, size, createdAt: clock.now() });
      });
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

    /**
     * Deletes the uploads made more than UNREFERENCED_UPLOAD_TTL_MS ago that no business (logo, sample image) and no
     * broadcast references: rows first (one statement, so an image a business takes meanwhile is either kept or
     * was already unreferenced), then their files. Returns the file names removed. The server runs it at start and
     * every hour (src/services/housekeeping.ts).
     */
    sweepUnreferenced(): string[] {
      const cutoff = new Date(clock.now().getTime() - UNREFERENCED_UPLOAD_TTL_MS);
      const removed = repos.transaction(() => repos.uploads.deleteUnreferencedBefore(cutoff));
      for (const name of removed) rmQuiet(fileOf(name));
      if (removed.length) diskSpace?.forget();
      return removed;
    },
    /** The files of uploads whose rows are already gone (an account the admin deleted). */
    removeFiles(fileNames: string[]): void {
      for (const name of fileNames) rmQuiet(fileOf(name));
      if (fileNames.length) diskSpace?.forget();
    },
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
