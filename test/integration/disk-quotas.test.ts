// Issue 10 item 4: the disk cannot be filled through the API. Each owner's uploads stay under the upload quota (a
// setting), uploads nothing uses are deleted after 24 h, writes are refused with 507 while the data dir's disk is down
// to its margin (reads, logins and deletes of images keep working), and a write that still hits a full database is the
// same 507, never a 500.
// Not the scenario runner: uploads are multipart forms, several per test to reach the quota.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeClock } from "../../src/clock.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { uploads } from "../../src/db/schema.ts";
import { DISK_FULL } from "../../src/errors.ts";
import type { FsSpace } from "../../src/lib/disk-space.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { quotaExceededMessage, UNREFERENCED_UPLOAD_TTL_MS } from "../../src/services/uploads.ts";
import { type ApiClient, apiClient, signUp } from "../helpers/api.ts";
import { insertBroadcast } from "../helpers/delivery-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { imageForm, padded, PNG } from "../helpers/images.ts";

const MB = 1024 * 1024;
const LOGO = "/api/business/UploadLogo";
const SAMPLE = "/api/business/UploadSampleImage";
const SETTINGS = "/api/settings";
const DISK_FULL_BODY = { error: DISK_FULL, code: "disk_full" };

/** A context on a real data dir (uploads on disk), an in-memory database, a fake clock and a fake disk. */
function diskContext(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "nearcast-disk-"));
  const clock = new FakeClock();
  const logger = new MemoryLogger();
  const disk: FsSpace = { free: 10_000 * MB, total: 20_000 * MB };
  const config = loadConfig({ NEARCAST_DATA_DIR: dataDir, NEARCAST_SUBSCRIBE_LIMIT: "0", NEARCAST_ADMIN_EMAIL: "admin@example.com", ...env });
  const ctx = createContext(config, {
    dbPath: ":memory:",
    clock,
    logger,
    diskSpace: { statfs: () => ({ ...disk }), cacheMs: 0, marginBytes: 50 * MB },
  });
  mkdirSync(ctx.services.uploads.dir, { recursive: true });
  return Object.assign(ctx, {
    clock,
    logger,
    disk,
    dataDir,
    files: () => readdirSync(ctx.services.uploads.dir).sort(),
    rows: () => ctx.db.select().from(uploads).orderBy(uploads.id).all(),
    dispose() {
      ctx.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

type DiskContext = ReturnType<typeof diskContext>;

/** A PNG of exactly `bytes` bytes (a real header, then padding). */
const pngOf = (bytes: number) => padded(PNG, bytes);

describe("the upload quota", () => {
  let ctx: DiskContext;
  let api: ApiClient;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let other: Awaited<ReturnType<typeof signUp>>;
  let admin: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    ctx = diskContext();
    api = apiClient(ctx);
    owner = await signUp(api);
    other = await signUp(api);
    admin = await signUp(api, { email: "admin@example.com" });
  });
  afterAll(() => ctx.dispose());

  test("is a setting: 200 MB by default, shown on GET /api/settings with its environment variable", async () => {
    const res = await api.get(SETTINGS, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.uploadQuotaMb).toEqual({ value: "200", source: "default", env: "NEARCAST_UPLOAD_QUOTA_MB", secret: false });
  });

  test("a value that is not a whole number of MB from 1 is a 400 naming the field, and nothing is saved", async () => {
    for (const bad of ["abc", "0", "1.5", "-3", "2000000"]) {
      const res = await api.put(SETTINGS, { uploadQuotaMb: bad }, { token: admin.token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: "validation_failed",
        error: "Upload quota must be a whole number of MB from 1 to 1048576",
        fields: { uploadQuotaMb: "Upload quota must be a whole number of MB from 1 to 1048576" },
      });
    }
    expect(ctx.services.settings.current().uploadQuotaMb).toBe(200);
  });

  test("NEARCAST_UPLOAD_QUOTA_MB sets it (and a bad one stops the start with a clear line)", () => {
    expect(loadConfig({ NEARCAST_UPLOAD_QUOTA_MB: "500" }).envSettings.uploadQuotaMb).toBe("500");
    expect(() => loadConfig({ NEARCAST_UPLOAD_QUOTA_MB: "lots" })).toThrow(ConfigError);
    expect(() => loadConfig({ NEARCAST_UPLOAD_QUOTA_MB: "lots" })).toThrow("NEARCAST_UPLOAD_QUOTA_MB: Upload quota must be a whole number of MB");
  });

  test("an upload that would take the owner over the quota is a 413 quota_exceeded naming the quota; nothing is stored", async () => {
    expect((await api.put(SETTINGS, { uploadQuotaMb: "2" }, { token: admin.token })).status).toBe(200);
    const first = await api.post(LOGO, undefined, { token: owner.token, body: imageForm(pngOf(1.5 * MB)) });
    expect(first.status).toBe(201);
    const before = { files: ctx.files(), rows: ctx.rows() };

    const over = await api.post(SAMPLE, undefined, { token: owner.token, body: imageForm(pngOf(0.75 * MB)) });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ code: "quota_exceeded", error: "Your uploads use 1.5 MB of your 2 MB. Delete an image or ask the admin for more room." });
    expect(over.body.error).toBe(quotaExceededMessage(1.5 * MB, 2));
    expect({ files: ctx.files(), rows: ctx.rows() }).toEqual(before);

    // Up to the quota exactly is fine; one byte more is not.
    const exact = await api.post(SAMPLE, undefined, { token: owner.token, body: imageForm(pngOf(0.5 * MB)) });
    expect(exact.status).toBe(201);
    const oneMore = await api.post(SAMPLE, undefined, { token: owner.token, body: imageForm(pngOf(100)) });
    expect(oneMore.status).toBe(413);
    expect(oneMore.body.error).toBe("Your uploads use 2 MB of your 2 MB. Delete an image or ask the admin for more room.");

    // Deleting an image gives the room back.
    const name = encodeURIComponent(first.body.filePath as string);
    expect((await api.del(`/api/business/DeleteLogo?fileName=${name}`, { token: owner.token })).status).toBe(200);
    expect((await api.post(LOGO, undefined, { token: owner.token, body: imageForm(pngOf(MB)) })).status).toBe(201);
  });

  test("the quota is each owner's: another owner's uploads do not count", async () => {
    const res = await api.post(LOGO, undefined, { token: other.token, body: imageForm(pngOf(1.5 * MB)) });
    expect(res.status).toBe(201);
  });

  test("the admin is not exempt (the admin can raise the setting instead)", async () => {
    expect((await api.post(LOGO, undefined, { token: admin.token, body: imageForm(pngOf(1.5 * MB)) })).status).toBe(201);
    const over = await api.post(LOGO, undefined, { token: admin.token, body: imageForm(pngOf(MB)) });
    expect(over.status).toBe(413);
    expect(over.body.code).toBe("quota_exceeded");
    expect((await api.put(SETTINGS, { uploadQuotaMb: 3 }, { token: admin.token })).status).toBe(200);
    expect((await api.post(LOGO, undefined, { token: admin.token, body: imageForm(pngOf(MB)) })).status).toBe(201);
  });

  test("a broadcast image counts too: publishing over the quota stores no image", async () => {
    expect((await api.put(SETTINGS, { uploadQuotaMb: "1" }, { token: admin.token })).status).toBe(200);
    const before = { files: ctx.files(), rows: ctx.rows() };
    await expect(ctx.services.uploads.saveBytes(other.id, "broadcast", pngOf(1000))).rejects.toMatchObject({ status: 413, code: "quota_exceeded" });
    expect({ files: ctx.files(), rows: ctx.rows() }).toEqual(before);
  });
});

describe("uploads nothing references are deleted after 24 hours", () => {
  let ctx: DiskContext;
  beforeEach(() => {
    ctx = diskContext();
  });
  afterEach(() => ctx.dispose());

  async function upload(ownerId: number, kind: "logo" | "sample" | "broadcast" = "logo") {
    return ctx.services.uploads.saveBytes(ownerId, kind, pngOf(2000));
  }

  test("referenced ones stay, unreferenced fresh ones stay, unreferenced old ones go (row and file)", async () => {
    const shop = insertBusiness(ctx);
    const ownerId = shop.ownerId;
    const logo = await upload(ownerId, "logo");
    const sample = await upload(ownerId, "sample");
    const broadcastImage = await upload(ownerId, "broadcast");
    const orphan = await upload(ownerId, "logo");
    ctx.db.$client.run("update businesses set logo_image_path = ?, sample_image_path = ? where id = ?", [logo.filePath, sample.filePath, shop.id]);
    insertBroadcast(ctx, { businessId: shop.id, imagePath: broadcastImage.filePath });

    ctx.clock.advance(UNREFERENCED_UPLOAD_TTL_MS - 60_000);
    const fresh = await upload(ownerId, "sample");
    // 23 h 59 min: nothing is old enough yet.
    expect(ctx.services.uploads.sweepUnreferenced()).toEqual([]);
    expect(ctx.rows()).toHaveLength(5);

    ctx.clock.advance(2 * 60_000);
    expect(ctx.services.uploads.sweepUnreferenced()).toEqual([orphan.fileName]);
    const kept = [logo, sample, broadcastImage, fresh].map((u) => u.fileName);
    expect(ctx.rows().map((r) => r.fileName)).toEqual(kept);
    expect(ctx.files()).toEqual([...kept].sort());
    expect(existsSync(join(ctx.services.uploads.dir, orphan.fileName))).toBe(false);

    // A day later the fresh one, never used, goes too; the referenced ones stay for good.
    ctx.clock.advance(UNREFERENCED_UPLOAD_TTL_MS);
    expect(ctx.services.uploads.sweepUnreferenced()).toEqual([fresh.fileName]);
    expect(ctx.rows().map((r) => r.fileName)).toEqual([logo, sample, broadcastImage].map((u) => u.fileName));
  });

  test("an image a business stops using is deleted a day after its upload, once the business no longer shows it", async () => {
    const shop = insertBusiness(ctx);
    const logo = await upload(shop.ownerId, "logo");
    ctx.db.$client.run("update businesses set logo_image_path = ? where id = ?", [logo.filePath, shop.id]);
    ctx.clock.advance(2 * UNREFERENCED_UPLOAD_TTL_MS);
    expect(ctx.services.uploads.sweepUnreferenced()).toEqual([]);
    ctx.db.$client.run("update businesses set logo_image_path = null where id = ?", [shop.id]);
    expect(ctx.services.uploads.sweepUnreferenced()).toEqual([logo.fileName]);
    expect(ctx.files()).toEqual([]);
  });

  test("the server's housekeeping sweeps at start (and then every hour)", async () => {
    const shop = insertBusiness(ctx);
    const orphan = await upload(shop.ownerId);
    ctx.clock.advance(UNREFERENCED_UPLOAD_TTL_MS + 1);
    ctx.startHousekeeping();
    expect(ctx.rows()).toEqual([]);
    expect(ctx.files()).toEqual([]);
    expect(ctx.logger.lines.some((l) => l.includes("deleted 1 unused upload(s)"))).toBe(true);
    expect(orphan.fileName).toMatch(/\.png$/);
  });
});

describe("writes are refused with 507 while the disk is down to its margin", () => {
  let ctx: DiskContext;
  let api: ApiClient;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let admin: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    ctx = diskContext();
    api = apiClient(ctx);
    owner = await signUp(api);
    admin = await signUp(api, { email: "admin@example.com" });
  });
  afterAll(() => ctx.dispose());
  afterEach(() => {
    ctx.disk.free = 10_000 * MB;
  });

  const typeCount = () => ctx.db.$client.query("select count(*) as n from business_types").get() as { n: number };

  test("a write answers 507 in the one error shape and stores nothing; with room again it works, without a restart", async () => {
    const before = typeCount().n;
    ctx.disk.free = 49 * MB;
    const full = await api.post("/api/businesstype/CreateBusinessType", { name: "Bookshop" }, { token: admin.token });
    expect(full.status).toBe(507);
    expect(full.body).toEqual(DISK_FULL_BODY);
    expect(typeCount().n).toBe(before);
    for (const [method, path] of [
      ["PUT", "/api/settings"],
      ["DELETE", "/api/business/DeleteBusiness?id=1"],
      ["POST", "/api/auth/Register"],
      ["POST", "/api/subscription/Subscribe"],
    ] as const) {
      const res = await api.call(method, path, { token: admin.token, json: {} });
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 507, body: DISK_FULL_BODY });
    }

    ctx.disk.free = 51 * MB;
    expect((await api.post("/api/businesstype/CreateBusinessType", { name: "Bookshop" }, { token: admin.token })).status).toBe(201);
    expect(typeCount().n).toBe(before + 1);
  });

  test("reads, logins and logouts keep working", async () => {
    ctx.disk.free = 0;
    expect((await api.get("/api/business/GetMyBusinesses", { token: owner.token })).status).toBe(200);
    expect((await api.get("/api/businesstype/GetAllBusinessTypes")).status).toBe(200);
    expect((await api.get("/api/health")).status).toBe(200);
    const login = await api.post("/api/auth/Login", { email: owner.email, password: owner.password });
    expect(login.status).toBe(200);
    expect((await api.get("/api/business/GetMyBusinesses", { token: login.body.token })).status).toBe(200);
    expect((await api.post("/api/auth/Logout", undefined, { token: login.body.token })).status).toBeLessThan(300);
  });

  test("an upload is refused before its file is written; deleting an image (which frees room) still works", async () => {
    const kept = await api.post(LOGO, undefined, { token: owner.token, body: imageForm(pngOf(1000)) });
    expect(kept.status).toBe(201);
    const before = { files: ctx.files(), rows: ctx.rows() };

    ctx.disk.free = 49 * MB;
    const res = await api.post(LOGO, undefined, { token: owner.token, body: imageForm(pngOf(1000)) });
    expect(res.status).toBe(507);
    expect(res.body).toEqual(DISK_FULL_BODY);
    expect({ files: ctx.files(), rows: ctx.rows() }).toEqual(before);

    // Room for the request, not for the image: the upload service's own check refuses it.
    ctx.disk.free = 52 * MB;
    const big = await api.post(LOGO, undefined, { token: owner.token, body: imageForm(pngOf(3 * MB)) });
    expect(big.status).toBe(507);
    expect(big.body).toEqual(DISK_FULL_BODY);
    expect({ files: ctx.files(), rows: ctx.rows() }).toEqual(before);

    ctx.disk.free = 0;
    const del = await api.del(`/api/business/DeleteLogo?fileName=${encodeURIComponent(kept.body.filePath)}`, { token: owner.token });
    expect(del.status).toBe(200);
    expect(ctx.files()).toEqual([]);
  });

  test("Twilio's webhooks still record (an opt-out must be honoured whatever the disk)", async () => {
    // Without Twilio credentials the webhooks take the install's key (inbound-door.test.ts).
    const key = ctx.services.inboundMessages.sandboxKey();
    const callback = () =>
      api.call("POST", `/api/webhooks/twilio/status?key=${key}`, {
        noXsrf: true,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "MessageSid=SM00000000000000000000000000000000&MessageStatus=delivered",
      });
    const withRoom = await callback();
    ctx.disk.free = 0;
    const full = await callback();
    expect({ status: full.status, body: full.body }).toEqual({ status: withRoom.status, body: withRoom.body });
    expect(full.status).toBeLessThan(300);
  });
});

describe("a write that still meets a full database is the same 507, not a 500", () => {
  let ctx: DiskContext;
  let api: ApiClient;
  let admin: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    ctx = diskContext();
    api = apiClient(ctx);
    admin = await signUp(api, { email: "admin@example.com" });
  });
  afterAll(() => ctx.dispose());

  test("SQLITE_FULL (the database cannot grow) answers 507 disk_full; the database stays intact and writes resume", async () => {
    const sqlite = ctx.db.$client;
    const pages = (sqlite.query("pragma page_count").get() as { page_count: number }).page_count;
    // The free-space check sees plenty of room (the fake disk): only SQLite itself can refuse, the way a disk that
    // filled between the check and the write would.
    sqlite.run(`pragma max_page_count = ${pages}`);
    const statuses: number[] = [];
    let last: { status: number; body: unknown } | undefined;
    for (let i = 0; i < 500 && last?.status !== 507; i++) {
      last = await api.post("/api/businesstype/CreateBusinessType", { name: `Shop kind ${i} ${"x".repeat(40)}` }, { token: admin.token });
      statuses.push(last.status);
    }
    expect({ status: last?.status, body: last?.body }).toEqual({ status: 507, body: DISK_FULL_BODY });
    expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true);
    expect(ctx.logger.lines.some((l) => /refused: the disk is full or read-only/.test(l))).toBe(true);
    expect(sqlite.query("pragma integrity_check").get()).toEqual({ integrity_check: "ok" });

    sqlite.run(`pragma max_page_count = ${pages * 100}`);
    expect((await api.post("/api/businesstype/CreateBusinessType", { name: "After the storm" }, { token: admin.token })).status).toBe(201);
  });
});
