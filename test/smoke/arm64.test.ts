// The arm64 release (dist/nearcast-linux-arm64, `make build TARGET=linux-arm64`) on an emulated Raspberry Pi 4 CPU
// (Cortex-A72) through qemu-user: serve, health, login, a CLI command beside the server, a poster and a broadcast
// through the sandbox messenger. scripts/run-tests.sh builds it first; `make test` installs qemu-user-static and
// libc6-arm64-cross (the arm64 C library the executable loads). Only a machine that could not install them skips,
// saying so.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { isPdf } from "../helpers/pdf-text.ts";
import { createCornerBakery, httpClient, type RunningBinary, startBinary } from "../helpers/server.ts";

const ARM64 = process.env.NEARCAST_TEST_ARM64_BINARY ?? join(import.meta.dir, "..", "..", "dist", "nearcast-linux-arm64");
const QEMU = "/usr/bin/qemu-aarch64-static";
const SYSROOT = "/usr/aarch64-linux-gnu";
const EMULATE = [QEMU, "-cpu", "cortex-a72", "-L", SYSROOT];
const OWNER = { firstName: "Pia", lastName: "Baker", email: "pi-owner@example.com", password: "correct horse" };
const ADMIN = { email: "pi-admin@example.com", password: "battery staple" };
// Emulated, everything is some 10-30x slower than native.
const SLOW = 120_000;

const missing = [QEMU, join(SYSROOT, "lib")].filter((p) => !existsSync(p));
if (missing.length > 0) {
  console.log(`arm64 smoke test skipped: ${missing.join(" and ")} missing (apt-get install qemu-user-static libc6-arm64-cross)`);
}

let home: string;
let dataDir: string;
let server: RunningBinary | undefined;

function run(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawnSync([...EMULATE, ARM64, ...args], { cwd: home, env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

describe.skipIf(missing.length > 0)("the arm64 executable on an emulated Cortex-A72", () => {
  beforeAll(() => {
    if (!existsSync(ARM64)) throw new Error(`${ARM64} is missing: run \`make build TARGET=linux-arm64\` first`);
    home = mkdtempSync(join(tmpdir(), "nearcast-arm64-"));
    dataDir = join(home, "data");
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  test("it is an AArch64 ELF executable, and --version names the release", () => {
    const header = readFileSync(ARM64).subarray(0, 20);
    expect(header.subarray(0, 4).toString("latin1")).toBe("\x7fELF");
    expect(header.readUInt16LE(18)).toBe(183); // e_machine EM_AARCH64
    const r = run(["--version"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out.trim()).toMatch(new RegExp(`^${pkg.version.replaceAll(".", "\\.")}\\+[0-9a-f]{10}(\\.dirty)?$`));
  }, SLOW);

  test("users create from the CLI, then serve answers /api/health and the admin logs in", async () => {
    const created = run(["users", "create", "--email", ADMIN.email, "--password", ADMIN.password, "--admin", "--data-dir", dataDir]);
    expect(created.err).toBe("");
    expect(created.code).toBe(0);
    server = await startBinary({}, dataDir, { binary: ARM64, cwd: home, wrap: EMULATE, startTimeoutMs: SLOW });
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", version: run(["--version"]).out.trim() });
    const login = await httpClient(server.url)("POST", "/api/auth/Login", ADMIN);
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ email: ADMIN.email, role: "admin" });
  }, SLOW);

  test("a business type added by the CLI while serving; an owner's business, its poster PDF, a broadcast sent", async () => {
    const added = run(["business-types", "add", "--name", "Pi Bakery", "--json", "--data-dir", dataDir]);
    expect(added.err).toBe("");
    expect(added.code).toBe(0);
    const typeId = JSON.parse(added.out).id as number;

    const call = httpClient(server!.url);
    expect((await call("POST", "/api/auth/Register", OWNER)).status).toBe(201);
    const { token } = (await call("POST", "/api/auth/Login", { email: OWNER.email, password: OWNER.password })).body as { token: string };
    // Its sample image uploaded first (the image checks on arm64 too), as the business form does.
    const businessId = await createCornerBakery(server!.url, token, typeId);

    const poster = await fetch(`${server!.url}/api/business/GetPosterPdf?id=${businessId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(poster.status).toBe(200);
    expect(isPdf(new Uint8Array(await poster.arrayBuffer()))).toBe(true);

    const csv = join(home, "customers.csv");
    writeFileSync(csv, "phone,contactPreference\n+14155550111,SMS\n+14155550112,SMS\n");
    const imported = run(["customers", "import", "--business", String(businessId), csv, "--json", "--data-dir", dataDir]);
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.out).added).toHaveLength(2);

    const xsrf = /XSRF-TOKEN=([^;]+)/.exec((await fetch(`${server!.url}/api/health`)).headers.get("set-cookie") ?? "")![1]!;
    const form = new FormData();
    form.set("BusinessId", String(businessId));
    form.set("MessageText", "Fresh sourdough at 7 on the Pi!");
    const sent = await fetch(`${server!.url}/api/business/PublishMessageToAllCustomers`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, cookie: `XSRF-TOKEN=${xsrf}`, "x-xsrf-token": xsrf },
      body: form,
    });
    expect(sent.status).toBe(200);
    const { broadcastId, recipients } = (await sent.json()) as { broadcastId: number; recipients: number };
    expect(recipients).toBe(2);

    // The dispatcher sends both through the sandbox messenger on the emulated CPU.
    let status: { sent: number; delivered: number; failed: number; skipped: number; completedAt: string | null } | undefined;
    for (const until = Date.now() + 60_000; Date.now() < until; await Bun.sleep(500)) {
      status = (await call("GET", `/api/business/GetBroadcastStatus?id=${broadcastId}`, undefined, token)).body;
      if (status?.completedAt) break;
    }
    // Complete once nothing waits; the sandbox's "delivered" receipts may still be on their way.
    expect(status!.completedAt).not.toBeNull();
    expect(status).toMatchObject({ failed: 0, skipped: 0 });
    expect(status!.sent + status!.delivered).toBe(2);
  }, SLOW * 2);
});
