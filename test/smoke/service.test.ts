// Running as a service (issue 13 items 2-4), with the BUILT executable: the systemd unit install-service writes (and
// systemd-analyze accepts), nothing else changed without --yes, SIGHUP (an SSH logout) not stopping serve, the log
// level, restore kept away from a running server, and serve's own upgrade of an older database.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SERVICE_DEFAULTS, serviceUnit } from "../../cli/service-unit.ts";
import { openDb } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { KNOWN_SCHEMA } from "../../src/db/schema-version.ts";
import { privateBinary, startBinary } from "../helpers/server.ts";

let work: string;
let bin: string;

function run(args: string[]) {
  const proc = Bun.spawnSync([bin, ...args], { cwd: work, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

beforeAll(() => {
  ({ work, bin } = privateBinary("nearcast-service-"));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("install-service", () => {
  test("deploy/nearcast.service is the unit install-service writes with its defaults", () => {
    expect(readFileSync(join(import.meta.dir, "..", "..", "deploy", "nearcast.service"), "utf8")).toBe(serviceUnit(SERVICE_DEFAULTS));
  });

  test("writes the unit for this executable, user and data dir; prints the rest and changes nothing else", () => {
    const out = join(work, "nearcast.service");
    const dataDir = join(work, "srv-data");
    const r = run(["install-service", "--user", "shop", "--data-dir", dataDir, "--out", out]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const unit = readFileSync(out, "utf8");
    expect(unit).toBe(serviceUnit({ user: "shop", dataDir, execPath: bin, envFile: SERVICE_DEFAULTS.envFile }));
    expect(unit).toContain(`ExecStart=${bin} serve --data-dir ${dataDir}`);
    expect(unit).toContain(`ReadWritePaths=${dataDir}`);
    expect(r.out).toContain(`Wrote ${out}`);
    expect(r.out).toContain(`  install -d -m 0700 -o shop -g shop ${dataDir}\n`);
    expect(r.out).toContain("  systemctl enable --now nearcast\n");
    expect(existsSync(dataDir)).toBe(false);
  });

  test.skipIf(!existsSync("/usr/bin/systemd-analyze"))("systemd-analyze verify accepts the unit", () => {
    const out = join(work, "verify.service");
    expect(run(["install-service", "--data-dir", join(work, "d"), "--out", out]).code).toBe(0);
    const verify = Bun.spawnSync(["systemd-analyze", "verify", out], { stdout: "pipe", stderr: "pipe" });
    expect(verify.stderr.toString()).toBe("");
    expect(verify.exitCode).toBe(0);
  });

  test("a bad user name or an --out folder that does not exist: one line, exit 2, nothing written", () => {
    const bad = run(["install-service", "--user", "Root Shop", "--out", join(work, "bad.service")]);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe('nearcast: --user must be a system user name such as nearcast (got "Root Shop")\n');
    expect(existsSync(join(work, "bad.service"))).toBe(false);
    const nowhere = run(["install-service", "--out", join(work, "missing", "x.service")]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.err).toBe(`nearcast: --out: the folder ${join(work, "missing")} does not exist\n`);
  });
});

if (!existsSync("/usr/bin/systemd-analyze")) console.log("service test: systemd-analyze is not installed here, the unit is not verified");

test("SIGHUP leaves serve running (logged); SIGTERM then stops it gracefully, exit 0", async () => {
  const server = await startBinary({}, join(work, "data"), { binary: bin, cwd: work });
  server.proc.kill("SIGHUP");
  for (let i = 0; i < 50 && !server.log().includes("SIGHUP"); i++) await Bun.sleep(20);
  expect(server.log()).toContain("SIGHUP received: ignored");
  expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  expect(server.proc.exitCode).toBeNull();
  server.proc.kill("SIGTERM");
  expect(await server.proc.exited).toBe(0);
  expect(server.log()).toContain("SIGTERM received, shutting down");
});

test("NEARCAST_LOG_LEVEL=warn: info lines are left out, but the startup line with the version is always written", async () => {
  const server = await startBinary({ NEARCAST_LOG_LEVEL: "warn" }, join(work, "quiet-data"), { binary: bin, cwd: work });
  try {
    expect(server.log()).toMatch(/ info  Nearcast \S+ listening on http:\/\/127\.0\.0\.1:\d+ /);
    expect(server.log()).not.toContain("dispatcher: sending messages");
    expect(server.log()).not.toContain("Messages: sandbox");
  } finally {
    await server.stop();
  }
});

test("backup while serve runs; restore refused while it runs (with the same line), then done once it stopped", async () => {
  const dataDir = join(work, "restore-data");
  const server = await startBinary({}, dataDir, { binary: bin, cwd: work });
  const out = join(work, "live.tar.gz");
  try {
    const backup = run(["backup", "--out", out, "--data-dir", dataDir]);
    expect(backup.err).toBe("");
    expect(backup.code).toBe(0);
    const refused = run(["restore", out, "--data-dir", dataDir]);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(`nearcast: a nearcast server is running on ${dataDir}: stop it first (e.g. systemctl stop nearcast)\n`);
  } finally {
    await server.stop();
  }
  const restored = run(["restore", out, "--data-dir", dataDir]);
  expect(restored.err).toBe("");
  expect(restored.code).toBe(0);
  expect(restored.out).toContain(`Restored ${out}`);
});

test("serve on a database an older nearcast made: backs it up, upgrades it, says so; then serves", async () => {
  const dataDir = join(work, "older-data");
  mkdirSync(dataDir);
  const db = openDb(join(dataDir, "nearcast.db"));
  migrate(db, KNOWN_SCHEMA - 1);
  db.$client.close();
  const server = await startBinary({}, dataDir, { binary: bin, cwd: work });
  try {
    expect(server.log()).toMatch(new RegExp(`before upgrading the database from schema ${KNOWN_SCHEMA - 1} to ${KNOWN_SCHEMA}: backup ${dataDir}/backups/nearcast-\\d{8}T\\d{6}Z\\.tar\\.gz`));
    expect(server.log()).toContain(`database upgraded from schema ${KNOWN_SCHEMA - 1} to ${KNOWN_SCHEMA}`);
    expect(readdirSync(join(dataDir, "backups")).filter((n) => n.endsWith(".tar.gz"))).toHaveLength(1);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  } finally {
    await server.stop();
  }
  expect(run(["users", "list", "--data-dir", dataDir]).code).toBe(0);
});
