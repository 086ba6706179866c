// The free-space check behind the 507 "disk is full" guard: its default margin, its one-second cache, and what an
// unmeasurable data dir means.
import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { createDiskSpace, type FsSpace } from "../../src/lib/disk-space.ts";
import { writesWhenDiskLow } from "../../src/http/middleware/disk-space.ts";

const MB = 1024 * 1024;
const GB = 1024 * MB;

function fake(space: FsSpace | null, options: { marginBytes?: number | null; cacheMs?: number } = {}) {
  let t = 0;
  let calls = 0;
  const disk = { space };
  const ds = createDiskSpace({
    dir: "/data",
    statfs: () => {
      calls++;
      if (!disk.space) throw Object.assign(new Error("no such dir"), { code: "ENOENT" });
      return { ...disk.space };
    },
    now: () => t,
    ...options,
  });
  return { ds, disk, advance: (ms: number) => (t += ms), calls: () => calls };
}

describe("the margin", () => {
  test("by default the larger of 50 MB and 2% of the disk", () => {
    const small = fake({ free: 60 * MB, total: 1 * GB });
    expect(small.ds.margin({ free: 0, total: 1 * GB })).toBe(50 * MB);
    expect(small.ds.hasRoomFor(0)).toBe(true);
    expect(small.ds.hasRoomFor(10 * MB)).toBe(true);
    expect(small.ds.hasRoomFor(10 * MB + 1)).toBe(false);
    const big = fake({ free: 10 * GB, total: 500 * GB });
    expect(big.ds.margin({ free: 0, total: 500 * GB })).toBe(10 * GB);
    expect(big.ds.hasRoomFor(0)).toBe(true);
    expect(big.ds.hasRoomFor(1)).toBe(false);
  });

  test("a configured margin replaces the rule; 0 leaves the whole disk to SQLite", () => {
    expect(fake({ free: 5 * MB, total: 24 * MB }, { marginBytes: 4 * MB }).ds.hasRoomFor(MB)).toBe(true);
    expect(fake({ free: 3 * MB, total: 24 * MB }, { marginBytes: 4 * MB }).ds.hasRoomFor(0)).toBe(false);
    expect(fake({ free: 0, total: 24 * MB }, { marginBytes: 0 }).ds.hasRoomFor(0)).toBe(true);
  });

  test("NEARCAST_DISK_MARGIN_MB sets it; unset is the default rule; a bad one stops the start", () => {
    expect(loadConfig({}).diskMarginMb).toBeNull();
    expect(loadConfig({ NEARCAST_DISK_MARGIN_MB: "4" }).diskMarginMb).toBe(4);
    expect(loadConfig({ NEARCAST_DISK_MARGIN_MB: "0" }).diskMarginMb).toBe(0);
    expect(() => loadConfig({ NEARCAST_DISK_MARGIN_MB: "-1" })).toThrow(ConfigError);
    expect(() => loadConfig({ NEARCAST_DISK_MARGIN_MB: "lots" })).toThrow("NEARCAST_DISK_MARGIN_MB must be a number from 0 to 1000000");
  });
});

describe("the cache", () => {
  test("the file system is asked at most once per second; forget() asks again at once", () => {
    const f = fake({ free: 100 * MB, total: GB }, { marginBytes: 50 * MB });
    expect(f.ds.hasRoomFor(0)).toBe(true);
    f.disk.space = { free: 10 * MB, total: GB };
    f.advance(999);
    expect(f.ds.hasRoomFor(0)).toBe(true);
    expect(f.calls()).toBe(1);
    f.advance(1);
    expect(f.ds.hasRoomFor(0)).toBe(false);
    expect(f.calls()).toBe(2);
    f.disk.space = { free: 100 * MB, total: GB };
    f.ds.forget();
    expect(f.ds.hasRoomFor(0)).toBe(true);
    expect(f.calls()).toBe(3);
  });

  test("a data dir that cannot be measured counts as room (SQLite's own error, mapped to 507, is then the guard)", () => {
    const f = fake(null);
    expect(f.ds.sample()).toBeNull();
    expect(f.ds.hasRoomFor(GB)).toBe(true);
  });
});

describe("which requests still write on a full disk", () => {
  test("reads, login, logout, Twilio's webhooks and deleting an image; every other write is refused", () => {
    for (const [method, path] of [
      ["GET", "/api/business/GetMyBusinesses"],
      ["HEAD", "/uploads/x.png"],
      ["POST", "/api/auth/Login"],
      ["POST", "/api/auth/Logout"],
      ["POST", "/api/webhooks/twilio/inbound"],
      ["POST", "/api/webhooks/twilio/status"],
      ["DELETE", "/api/business/DeleteLogo"],
      ["DELETE", "/api/business/DeleteSampleImage"],
    ]) expect({ method, path, allowed: writesWhenDiskLow(method!, path!) }).toEqual({ method, path, allowed: true });
    for (const [method, path] of [
      ["POST", "/api/auth/Register"],
      ["POST", "/api/business/CreateBusiness"],
      ["PUT", "/api/settings"],
      ["PATCH", "/api/business/UpdateBusiness"],
      ["DELETE", "/api/business/DeleteBusiness"],
      ["POST", "/api/business/UploadLogo"],
    ]) expect({ method, path, allowed: writesWhenDiskLow(method!, path!) }).toEqual({ method, path, allowed: false });
  });
});
