// Issue 10 item 4, with the BUILT executable on a real full disk: a 24 MB tmpfs as the data dir, filled with a big
// file. Writes answer 507 "The server's disk is full" in the one error shape before SQLite fails; logins and reads keep
// working; the database stays intact; once the filler is deleted, writes work again without a restart. A second run
// with no margin lets SQLite itself hit the full disk: still the same 507, never a 500, and the server lives on.
// Mounting needs root: as another user this file is skipped, with the reason printed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DISK_FULL } from "../../src/errors.ts";
import { png } from "../helpers/images.ts";
import { BINARY, httpClient, type RunningBinary, startBinary, uploadSampleImage } from "../helpers/server.ts";
import { until } from "../helpers/until.ts";

const IS_ROOT = process.getuid?.() === 0;
if (!IS_ROOT) console.log("disk-full smoke test skipped: mounting a small tmpfs needs root (run the tests as root to include it)");

const MB = 1024 * 1024;
const MARGIN_MB = 4;
const DISK_FULL_BODY = { error: DISK_FULL, code: "disk_full" };
const OWNER = { firstName: "Ada", lastName: "Baker", email: "disk-owner@example.com", password: "correct horse" };

let mountPoint: string;
let mounted = false;
let server: RunningBinary | undefined;

function sh(cmd: string[]): void {
  const p = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${p.stderr.toString()}`);
}

const freeBytes = () => {
  const s = statfsSync(mountPoint);
  return Number(s.bavail) * Number(s.bsize);
};

/** Writes zeros to `path` until only `leave` bytes are free on the tmpfs (or the disk refuses more). */
function fill(path: string, leave: number): void {
  const fd = openSync(path, "a");
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (let want = freeBytes() - leave; want > 0; want = freeBytes() - leave) {
      try {
        writeSync(fd, chunk, 0, Math.min(chunk.length, want));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOSPC") return;
        throw e;
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(!IS_ROOT)("a full disk under the built executable", () => {
  let call: ReturnType<typeof httpClient>;
  let token: string;
  let typeId: number;
  let samplePath: string;
  let created = 0;
  const business = () => ({
    name: `Corner Bakery ${++created}`,
    businessTypeId: typeId,
    address: "1200 Valencia St, San Francisco, CA",
    phone: "(415) 555-0100",
    sampleProductText: "Sourdough loaf: $6",
    sampleImagePath: samplePath,
  });
  const filler = () => join(mountPoint, "filler.bin");

  beforeAll(async () => {
    if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`npx bun scripts/build.ts\` first`);
    mountPoint = mkdtempSync(join(tmpdir(), "nearcast-tmpfs-"));
    sh(["mount", "-t", "tmpfs", "-o", "size=24m,mode=0700", "tmpfs", mountPoint]);
    mounted = true;
    server = await startBinary({ NEARCAST_DISK_MARGIN_MB: String(MARGIN_MB) }, mountPoint);
    call = httpClient(server.url);
    expect((await call("POST", "/api/auth/Register", OWNER)).status).toBe(201);
    const login = await call("POST", "/api/auth/Login", { email: OWNER.email, password: OWNER.password });
    expect(login.status).toBe(200);
    token = login.body.token;
    typeId = (await call("GET", "/api/businesstype/GetAllBusinessTypes")).body[0].id;
    const upload = await uploadSampleImage(server.url, token, png(8, 8));
    expect(upload.status).toBe(201);
    samplePath = upload.body.filePath;
    expect((await call("POST", "/api/business/CreateBusiness", business(), token)).status).toBe(201);
  });

  afterAll(async () => {
    await server?.stop();
    if (mounted) sh(["umount", mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  test("below the margin: writes 507 in the one error shape; login and reads 200; delete the filler and writes work again", async () => {
    fill(filler(), 2 * MB);
    expect(freeBytes()).toBeLessThan(MARGIN_MB * MB);

    // The free space is read at most once a second: a second later the guard knows. (Writes in that second still
    // go through and use the room left: hammering it then filled the last 2 MB with businesses now and then.)
    await Bun.sleep(1100);
    const refused = await call("POST", "/api/business/CreateBusiness", business(), token);
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 507, body: DISK_FULL_BODY });

    const login = await call("POST", "/api/auth/Login", { email: OWNER.email, password: OWNER.password });
    expect(login.status).toBe(200);
    const mine = await call("GET", "/api/business/GetMyBusinesses", undefined, login.body.token);
    expect(mine.status).toBe(200);
    const before = mine.body.length;
    expect((await call("GET", "/api/businesstype/GetAllBusinessTypes")).status).toBe(200);
    expect((await call("GET", "/api/health")).status).toBe(200);
    expect((await fetch(`${server!.url}${samplePath}`)).status).toBe(200);

    rmSync(filler());
    let again: { status: number; body: unknown } | undefined;
    await until(async () => {
      again = await call("POST", "/api/business/CreateBusiness", business(), token);
      return again.status !== 507;
    }, 5000, "CreateBusiness to work again");
    expect(again!.status).toBe(201);
    expect((await call("GET", "/api/business/GetMyBusinesses", undefined, token)).body.length).toBe(before + 1);
  });

  test("with no margin SQLite itself meets the full disk: 507, never 500; the server lives on and the database is intact", async () => {
    await server!.stop();
    server = await startBinary({ NEARCAST_DISK_MARGIN_MB: "0" }, mountPoint);
    call = httpClient(server.url);
    const login = await call("POST", "/api/auth/Login", { email: OWNER.email, password: OWNER.password });
    token = login.body.token;
    fill(filler(), 0);

    const statuses = new Set<number>();
    let last: { status: number; body: unknown } | undefined;
    for (let i = 0; i < 3000 && last?.status !== 507; i++) {
      last = await call("POST", "/api/business/CreateBusiness", business(), token);
      statuses.add(last.status);
    }
    expect({ status: last?.status, body: last?.body }).toEqual({ status: 507, body: DISK_FULL_BODY });
    expect([...statuses].filter((s) => s !== 201 && s !== 507)).toEqual([]);
    // SQLite's (or the file system's) own error, mapped by the error handler, not the free-space guard's refusal. The
    // child's log reaches us through a pipe, so its line may come a moment after the answer.
    await until(() => server!.log().includes("refused: the disk is full or read-only"), 5000, "the log line of SQLite's refusal");
    expect(server!.proc.exitCode).toBeNull();
    expect((await call("GET", "/api/business/GetMyBusinesses", undefined, token)).status).toBe(200);

    rmSync(filler());
    // The client's reused keep-alive connection was once reset here (ECONNRESET, 1 fresh-clone run in ~15): it asks
    // again, as a browser does on a reused connection. A server that died refuses the next one, and the test then
    // fails with its exit and its log.
    const createWorks = async () => {
      try {
        return (await call("POST", "/api/business/CreateBusiness", business(), token)).status === 201;
      } catch (err) {
        if ((err as { code?: string }).code !== "ECONNRESET") throw err;
        return false;
      }
    };
    await until(createWorks, 5000, "writes to work again").catch((err: Error) => {
      throw new Error(`${err.message}; the server's exit: ${server!.proc.exitCode ?? server!.proc.signalCode}; its log:\n${server!.log()}`);
    });
    expect(server!.proc.exitCode).toBeNull();
    await server!.stop();
    server = undefined;
    const db = new Database(join(mountPoint, "nearcast.db"));
    try {
      expect(db.query("pragma integrity_check").get()).toEqual({ integrity_check: "ok" });
    } finally {
      db.close();
    }
  });
});
