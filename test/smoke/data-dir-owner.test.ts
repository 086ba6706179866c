// Issue 21 item 6 with the BUILT executable: an admin who types `sudo` never breaks the service. The service user
// here is `nobody` (65534), owning its data dir; the admin is this process, root. `sudo nearcast backup` and
// `sudo nearcast restore` run as the data dir's owner, so everything they write is nobody's and the service starts;
// what an older nearcast run as root left there (a root-owned nearcast.db or backups/) is said in words by serve
// (never "damaged"), serve goes on when only backups/ is affected, and the next sudo command gives it back; a user
// who may not write the data dir is told the exact `sudo -u` command.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, startBinary } from "../helpers/server.ts";

const IS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;
const SOURCE = process.env.NEARCAST_TEST_BINARY ?? BINARY;

let home: string;
let bin: string;
let asNobody: string;
let n = 0;

function run(args: string[], as: "root" | "nobody" | number = "root", env: Record<string, string> = {}) {
  const su = as === "root" ? [] : ["setpriv", `--reuid=${as === "nobody" ? NOBODY : as}`, `--regid=${as === "nobody" ? NOBODY : as}`, "--clear-groups"];
  const p = Bun.spawnSync([...su, bin, ...args], { cwd: home, env: { PATH: process.env.PATH ?? "", NEARCAST_ENV_FILE: join(home, "no-such.env"), ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

/** Entries of the data dir (itself included) that do not belong to nobody. */
function notNobodys(dir: string): string[] {
  return ["", ...readdirSync(dir, { recursive: true, encoding: "utf8" })].filter((name) => lstatSync(join(dir, name)).uid !== NOBODY);
}

/** A data dir of nobody's with a database, made by nobody (as `install-service --yes` and the service would). */
function serviceDataDir(): string {
  const parent = join(home, `svc-${++n}`);
  mkdirSync(parent, { mode: 0o755 });
  chownSync(parent, NOBODY, NOBODY);
  const dir = join(parent, "data");
  expect(run(["migrate", "--data-dir", dir], "nobody")).toMatchObject({ code: 0 });
  expect(run(["settings", "set", "brandName", "Corner Bakery", "--data-dir", dir], "nobody")).toMatchObject({ code: 0 });
  return dir;
}

async function serveAsNobody(dir: string): Promise<string> {
  const server = await startBinary({}, dir, { binary: asNobody, cwd: home });
  try {
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    return server.log();
  } finally {
    await server.stop();
  }
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "nearcast-owner-"));
  chmodSync(home, 0o755); // the service user must reach the executable and its folders
  bin = join(home, "nearcast");
  copyFileSync(SOURCE, bin);
  chmodSync(bin, 0o755);
  asNobody = join(home, "as-nobody.sh");
  writeFileSync(asNobody, `#!/bin/sh\nexec setpriv --reuid=${NOBODY} --regid=${NOBODY} --clear-groups ${bin} "$@"\n`, { mode: 0o755 });
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

if (!IS_ROOT) console.log("data-dir-owner test: not root here, so there is no sudo to test");

describe.skipIf(!IS_ROOT)("sudo on the service's data dir", () => {
  test("sudo nearcast backup: backups/ and the backup are the service user's; the service starts", async () => {
    const dir = serviceDataDir();
    const r = run(["backup", "--data-dir", dir]);
    expect(r).toMatchObject({ code: 0, err: "" });
    expect(readdirSync(join(dir, "backups")).filter((name) => name.endsWith(".tar.gz"))).toHaveLength(1);
    expect(notNobodys(dir)).toEqual([]);
    await serveAsNobody(dir);
  }, 30_000);

  test("sudo nearcast restore: nearcast.db and what it set aside are the service user's; the service starts", async () => {
    const dir = serviceDataDir();
    const file = join(dir, "..", "shop.tar.gz");
    expect(run(["backup", "--out", file, "--data-dir", dir]).code).toBe(0);
    const r = run(["restore", file, "--data-dir", dir]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(readdirSync(dir).some((name) => name.startsWith("nearcast.db.before-restore-"))).toBe(true);
    expect(notNobodys(dir)).toEqual([]);
    await serveAsNobody(dir);
    expect(run(["settings", "get", "brandName", "--data-dir", dir]).out).toBe("Corner Bakery\n");
    expect(notNobodys(dir)).toEqual([]);
  }, 30_000);

  test("a root-owned nearcast.db (an older sudo restore): serve says who owns it, exit 2, never 'damaged'; the next sudo command gives it back", async () => {
    const dir = serviceDataDir();
    chownSync(join(dir, "nearcast.db"), 0, 0);
    const r = run(["serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", dir], "nobody");
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `nearcast: ${join(dir, "nearcast.db")} belongs to root, and nearcast runs as nobody: it cannot read or write it. ` +
        `Give it back: sudo chown -R nobody: ${dir} (any \`sudo nearcast ...\` command on this data dir does it too); the database is not damaged\n`,
    );
    expect(r.err).not.toContain("restore a backup");
    // Any other command of the service's user says the same, in the same words.
    const list = run(["users", "list", "--data-dir", dir], "nobody");
    expect(list.code).toBe(2);
    expect(list.err).toStartWith(`nearcast: ${join(dir, "nearcast.db")} belongs to root, and nearcast runs as nobody: it cannot read or write it. Give it back:`);
    expect(run(["users", "list", "--data-dir", dir]).code).toBe(0);
    expect(notNobodys(dir)).toEqual([]);
    await serveAsNobody(dir);
  }, 30_000);

  test("a root-owned backups/ (an older sudo backup): serve warns in words and serves; no crash, no stack", async () => {
    const dir = serviceDataDir();
    mkdirSync(join(dir, "backups"), { mode: 0o700 });
    chownSync(join(dir, "backups"), 0, 0);
    const log = await serveAsNobody(dir);
    expect(log).toContain(
      ` warn  ${join(dir, "backups")} belongs to root, and nearcast runs as nobody: it cannot read or write it. Give it back: sudo chown -R nobody: ${dir}`,
    );
    expect(log).toContain("until then scheduled backups fail");
    expect(log).not.toMatch(/EACCES|at .*\(|\/\$bunfs\//);
  }, 30_000);

  test("sudo with a file only root may write: said in words, naming the user nearcast runs as", () => {
    const dir = serviceDataDir();
    const rootOnly = join(home, `root-only-${n}`);
    mkdirSync(rootOnly, { mode: 0o700 });
    const out = join(rootOnly, "shop.tar.gz");
    const r = run(["backup", "--out", out, "--data-dir", dir]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`nearcast: --out: cannot write ${out} (permission denied to nobody, the data dir's owner, as whom nearcast runs)\n`);
    expect(notNobodys(dir)).toEqual([]);
  });

  test("a user who may not write the data dir is told the exact command, with its arguments and the data dir", () => {
    const dir = serviceDataDir();
    const r = run(["users", "list", "--json", "--data-dir", dir], 65533);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`nearcast: ${dir} belongs to nobody, not to #65533: run it as nobody: sudo -u nobody ${bin} users list --json --data-dir ${dir}\n`);
    const fromEnv = run(["backup"], 65533, { NEARCAST_DATA_DIR: dir });
    expect(fromEnv.err).toBe(`nearcast: ${dir} belongs to nobody, not to #65533: run it as nobody: sudo -u nobody ${bin} backup --data-dir ${dir}\n`);
    expect(existsSync(join(dir, "backups"))).toBe(false);
  });
});
