// Free room on the data directory's file system, so writes are refused with a clear 507 BEFORE SQLite runs out of
// room mid-transaction (and the uploads folder fills the last bytes). A margin stays free for what must still work
// when the disk is "full": logins (a session row), opt-outs from the webhook, the dispatcher recording results.
import { statfsSync } from "node:fs";

const MB = 1024 * 1024;
/** The default margin: the larger of 50 MB and 2% of the file system. */
export const DEFAULT_MARGIN_MIN_BYTES = 50 * MB;
export const DEFAULT_MARGIN_SHARE = 0.02;
/** statfs is a system call: one per second at most, whatever the request rate. */
export const DEFAULT_CACHE_MS = 1000;

export interface FsSpace {
  /** Bytes an unprivileged writer may still use. */
  free: number;
  /** Size of the file system in bytes. */
  total: number;
}

export interface DiskSpaceOptions {
  /** The folder whose file system is watched (the data dir). */
  dir: string;
  /** Bytes to keep free; null or absent = max(50 MB, 2% of the file system). */
  marginBytes?: number | null;
  cacheMs?: number;
  /** Reads the file system's figures; tests give a fake. Throwing (or null) = unknown, and writes are allowed. */
  statfs?: (dir: string) => FsSpace | null;
  /** Milliseconds of a monotonic clock (the cache's); tests give a fake. */
  now?: () => number;
}

export function systemStatfs(dir: string): FsSpace {
  const s = statfsSync(dir);
  return { free: Number(s.bavail) * Number(s.bsize), total: Number(s.blocks) * Number(s.bsize) };
}

export interface DiskSpace {
  /** The latest figures (cached for `cacheMs`), or null when the file system cannot be asked. */
  sample(): FsSpace | null;
  /** The bytes kept free on this file system. */
  margin(space: FsSpace): number;
  /** Whether `bytes` more can be written and still leave the margin free. Unknown space counts as room. */
  hasRoomFor(bytes: number): boolean;
  /** Forget the cached figures (after a big write or delete of our own). */
  forget(): void;
}

export function createDiskSpace(options: DiskSpaceOptions): DiskSpace {
  const statfs = options.statfs ?? systemStatfs;
  const now = options.now ?? (() => performance.now());
  const cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
  let cached: { at: number; space: FsSpace | null } | null = null;

  function sample(): FsSpace | null {
    const t = now();
    if (cached && t - cached.at < cacheMs) return cached.space;
    let space: FsSpace | null;
    try {
      space = statfs(options.dir);
    } catch {
      // A data dir that cannot be measured (not created yet, an exotic file system): SQLite's own error, mapped to
      // the same 507, is then the only guard.
      space = null;
    }
    cached = { at: t, space };
    return space;
  }

  function margin(space: FsSpace): number {
    if (options.marginBytes !== undefined && options.marginBytes !== null) return options.marginBytes;
    return Math.max(DEFAULT_MARGIN_MIN_BYTES, Math.ceil(space.total * DEFAULT_MARGIN_SHARE));
  }

  return {
    sample,
    margin,
    hasRoomFor(bytes: number): boolean {
      const space = sample();
      return space === null || space.free - bytes >= margin(space);
    },
    forget() {
      cached = null;
    },
  };
}
