// Issue 21 item 6 with the BUILT executable: the commands typed on a server find its data dir and settings the way
// the service does, in the env file install-service writes (NEARCAST_ENV_FILE points the tests at their own), or
// refuse naming it; install-service writes that file 0600 with NEARCAST_DATA_DIR (and tightens an existing one); the
// unit does not restart on a configuration error (exit 2).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { privateBinary } from "../helpers/server.ts";

let work: string;
let bin: string;
let envFile: string;
let dataDir: string;
let elsewhere: string;

function run(args: string[], env: Record<string, string> = {}, as?: number) {
  const su = as === undefined ? [] : ["setpriv", `--reuid=${as}`, `--regid=${as}`, "--clear-groups"];
  const p = Bun.spawnSync([...su, bin, ...args], { cwd: elsewhere, env: { PATH: process.env.PATH ?? "", NEARCAST_ENV_FILE: envFile, ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

beforeAll(() => {
  ({ work, bin, dataDir } = privateBinary("nearcast-env-file-"));
  chmodSync(work, 0o755);
  mkdirSync(join(work, "etc"));
  envFile = join(work, "etc", "nearcast.env");
  elsewhere = join(work, "home");
  mkdirSync(elsewhere, { mode: 0o777 });
  chmodSync(elsewhere, 0o777);
  expect(run(["migrate", "--data-dir", dataDir]).code).toBe(0);
  writeFileSync(envFile, `# the service's settings\nNEARCAST_DATA_DIR=${dataDir}\nNEARCAST_PUBLIC_URL="https://deals.example.com"\n`, { mode: 0o600 });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("commands find the service's data dir and settings in its env file", () => {
  test("doctor: the service's data dir and public URL (no false failure), from any folder", () => {
    const r = run(["doctor"]);
    expect(r.err).toBe("");
    // Its public URL, and no FAIL: a warning, as it is a name reserved for examples that nothing answers at (issue 23 item 10).
    expect(r.out).toMatch(/^warn\s+Public URL:\s+We could not reach https:\/\/deals\.example\.com from this server/m);
    expect(readdirSync(elsewhere)).toEqual([]); // no ./data of its own
  });

  test("backup and restore without --data-dir: the service's", () => {
    const b = run(["backup", "--json"]);
    expect(b.err).toBe("");
    const file = JSON.parse(b.out).file as string;
    expect(file.startsWith(join(dataDir, "backups", "nearcast-"))).toBe(true);
    const r = run(["restore", file]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(readdirSync(dataDir).some((name) => name.startsWith("nearcast.db.before-restore-"))).toBe(true);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  test("another --data-dir does not take the service's settings", () => {
    const other = join(work, "other");
    expect(run(["migrate", "--data-dir", other]).code).toBe(0);
    const r = run(["doctor", "--data-dir", other]);
    expect(r.out).toMatch(/^FAIL\s+Public URL:/m);
  });

  test("an env file this user may not read: refused, naming it", () => {
    const r = run(["doctor"], {}, 65534);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`nearcast: cannot read ${envFile}, the service's settings and data dir (permission denied): run it with sudo, or name the data dir with --data-dir\n`);
  });
});

describe("install-service and the env file", () => {
  test("a new env file: written 0600 with NEARCAST_DATA_DIR; the unit reads it and does not restart on exit 2", () => {
    const file = join(work, "etc", "new.env");
    const unit = join(work, "new.service");
    const r = run(["install-service", "--data-dir", "/srv/shop", "--out", unit], { NEARCAST_ENV_FILE: file });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Wrote ${file} (0600) with NEARCAST_DATA_DIR=/srv/shop.`);
    expect(mode(file)).toBe("600");
    expect(readFileSync(file, "utf8")).toContain("\nNEARCAST_DATA_DIR=/srv/shop\n");
    const text = readFileSync(unit, "utf8");
    expect(text).toContain(`EnvironmentFile=-${file}\n`);
    expect(text).toContain("RestartPreventExitStatus=2\n");
  });

  test("an existing env file with secrets, 0644: made 0600, NEARCAST_DATA_DIR added, the rest kept", () => {
    const file = join(work, "etc", "old.env");
    writeFileSync(file, "TWILIO_AUTH_TOKEN=s3cret-token\nNEARCAST_PUBLIC_URL=https://deals.example.com", { mode: 0o644 });
    chmodSync(file, 0o644);
    const r = run(["install-service", "--data-dir", "/srv/shop", "--out", join(work, "old.service")], { NEARCAST_ENV_FILE: file });
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${file}: made it 0600 (it was 0644: it holds secrets); added NEARCAST_DATA_DIR=/srv/shop.`);
    expect(mode(file)).toBe("600");
    expect(readFileSync(file, "utf8")).toBe("TWILIO_AUTH_TOKEN=s3cret-token\nNEARCAST_PUBLIC_URL=https://deals.example.com\nNEARCAST_DATA_DIR=/srv/shop\n");
    expect(r.out).not.toContain("s3cret");
  });

  test("a folder for it that does not exist yet: nothing written there without --yes, and said so", () => {
    const file = join(work, "missing-etc", "nearcast.env");
    const r = run(["install-service", "--out", join(work, "m.service")], { NEARCAST_ENV_FILE: file });
    expect(r.code).toBe(0);
    expect(r.out).toContain(`  install -d -m 0755 ${join(work, "missing-etc")}\n`);
    expect(r.out).toContain(`(then this command again, which writes ${file} 0600 with NEARCAST_DATA_DIR=/var/lib/nearcast)`);
    expect(existsSync(join(work, "missing-etc"))).toBe(false);
  });
});
