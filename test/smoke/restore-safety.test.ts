// Issue 21 item 4 with the BUILT executable: two restores started at once both finish and every database they set
// aside is kept; a backup holding a symbolic or hard link is refused with nothing changed; what killed backups and
// restores left is swept by the next run (not what a running one is writing); serve, migrate and users create refuse
// to start an empty shop in a data dir that lost its database; restore names the data dir it replaces.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { privateBinary } from "../helpers/server.ts";

let work: string;
let bin: string;
let n = 0;

const ENV = () => ({ PATH: process.env.PATH ?? "", NEARCAST_ENV_FILE: join(work, "no-such.env") });

function run(args: string[], cwd = work) {
  const p = Bun.spawnSync([bin, ...args], { cwd, env: ENV(), stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

/** A new data dir with a database whose brand name is `brand`. */
function shop(brand: string): string {
  const dir = join(work, `shop-${++n}`);
  expect(run(["migrate", "--data-dir", dir]).code).toBe(0);
  expect(run(["settings", "set", "brandName", brand, "--data-dir", dir]).code).toBe(0);
  return dir;
}

/** The brand name in a database file, read from a copy (the folder it is in stays as it is). */
function brandIn(file: string): string {
  const probe = join(work, `probe-${++n}`);
  mkdirSync(probe);
  copyFileSync(file, join(probe, "nearcast.db"));
  return run(["settings", "get", "brandName", "--data-dir", probe]).out.trim();
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
    const st = lstatSync(join(dir, name));
    out[name] = st.isFile() ? createHash("sha256").update(readFileSync(join(dir, name))).digest("hex") : st.isDirectory() ? "dir" : "other";
  }
  return out;
}

beforeAll(() => {
  ({ work, bin } = privateBinary("nearcast-restore-safety-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

test("two restores started at once: both finish, and every database they set aside is kept", async () => {
  const dir = shop("Alpha");
  const alpha = join(work, "alpha.tar.gz");
  expect(run(["backup", "--out", alpha, "--data-dir", dir]).code).toBe(0);
  expect(run(["settings", "set", "brandName", "Beta", "--data-dir", dir]).code).toBe(0);
  const beta = join(work, "beta.tar.gz");
  expect(run(["backup", "--out", beta, "--data-dir", dir]).code).toBe(0);
  expect(run(["settings", "set", "brandName", "Gamma", "--data-dir", dir]).code).toBe(0);

  const restore = (file: string) => Bun.spawn([bin, "restore", file, "--data-dir", dir], { cwd: work, env: ENV(), stdout: "pipe", stderr: "pipe" });
  const procs = [restore(alpha), restore(beta)];
  const codes = await Promise.all(procs.map((p) => p.exited));
  expect(codes).toEqual([0, 0]);

  const aside = readdirSync(dir).filter((name) => name.startsWith("nearcast.db.before-restore-"));
  expect(aside).toHaveLength(2);
  const brands = aside.map((name) => brandIn(join(dir, name))).sort();
  const now = brandIn(join(dir, "nearcast.db"));
  // Gamma (the shop before either) was set aside by the first; the first's restored database by the second.
  expect(brands).toContain("Gamma");
  expect([...brands, now].sort()).toEqual(["Alpha", "Beta", "Gamma"]);
  expect(readdirSync(dir).filter((name) => name.startsWith("uploads.before-restore-") || name.startsWith(".restore-"))).toEqual([]);
}, 60_000);

describe("a backup with a link in it is refused; nothing changes", () => {
  /** A backup like a real one, with `tamper` applied to its extracted files before it is packed again. */
  function tampered(dir: string, tamper: (staging: string) => void): string {
    const real = join(work, `real-${++n}.tar.gz`);
    expect(run(["backup", "--out", real, "--data-dir", dir]).code).toBe(0);
    const staging = join(work, `tamper-${n}`);
    mkdirSync(staging);
    expect(Bun.spawnSync(["tar", "-xzf", real, "-C", staging]).exitCode).toBe(0);
    tamper(staging);
    const out = join(work, `tampered-${n}.tar.gz`);
    expect(Bun.spawnSync(["tar", "-czf", out, "-C", staging, ...readdirSync(staging)]).exitCode).toBe(0);
    return out;
  }

  const cases: [string, (staging: string) => void, string][] = [
    [
      "nearcast.db a symbolic link to a file outside",
      (s) => {
        rmSync(join(s, "nearcast.db"));
        symlinkSync("/etc/passwd", join(s, "nearcast.db"));
      },
      "nearcast.db is a symbolic link",
    ],
    [
      "an upload that is a symbolic link",
      (s) => {
        mkdirSync(join(s, "uploads"), { recursive: true });
        symlinkSync("/etc/shadow", join(s, "uploads", "logo.png"));
      },
      "uploads/logo.png is a symbolic link",
    ],
    [
      "an upload that is a hard link",
      (s) => {
        mkdirSync(join(s, "uploads"), { recursive: true });
        writeFileSync(join(s, "uploads", "a.png"), "png");
        linkSync(join(s, "uploads", "a.png"), join(s, "uploads", "b.png"));
      },
      "is a hard link",
    ],
  ];
  for (const [name, tamper, why] of cases) {
    test(name, () => {
      const dir = shop("Delta");
      const file = tampered(dir, tamper);
      const before = snapshot(dir);
      const r = run(["restore", file, "--data-dir", dir]);
      expect(r.code).toBe(2);
      expect(r.err).toStartWith(`nearcast: ${file} is not a nearcast backup (`);
      expect(r.err).toContain(why);
      expect(r.err).toEndWith("; nothing was changed\n");
      expect(snapshot(dir)).toEqual(before);
      expect(existsSync("/etc/passwd")).toBe(true);
    });
  }
});

test("what killed backups and restores left is swept by the next backup; a running one's files are not", () => {
  const dir = shop("Epsilon");
  mkdirSync(join(dir, "backups"));
  // A process id that is certainly gone: a child that has exited.
  const dead = Bun.spawnSync(["true"]).pid;
  const left = [
    `.restore-${dead}-Ab12Cd`,
    `backups/.staging-${dead}-Xy34Zw`,
    `backups/.nearcast-20261126T010000Z.tar.gz.${dead}.partial`,
    // The names an older nearcast used (no process id): swept under the lock.
    "backups/.staging-Qw56Er",
    "backups/.restore-Ty78Ui",
    "backups/.nearcast-20261126T020000Z.tar.gz.partial",
  ];
  for (const name of left) {
    if (name.endsWith(".partial")) writeFileSync(join(dir, name), "half a backup");
    else {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, "nearcast.db"), "a staged copy");
    }
  }
  // This test process is alive: a staging folder with its id belongs to a running backup.
  const running = `backups/.staging-${process.pid}-Op90As`;
  mkdirSync(join(dir, running));
  const r = run(["backup", "--data-dir", dir]);
  expect(r.code).toBe(0);
  expect(r.err).toStartWith("nearcast: removed what an interrupted backup or restore left: ");
  for (const name of left) expect({ name, there: existsSync(join(dir, name)) }).toEqual({ name, there: false });
  expect(existsSync(join(dir, running))).toBe(true);
  expect(readdirSync(join(dir, "backups")).filter((name) => name.endsWith(".tar.gz") && !name.startsWith("."))).toHaveLength(1);
});

describe("a data dir that lost its database is not given a new empty one", () => {
  const lost = (what: "aside" | "backups") => {
    const dir = shop("Zeta");
    if (what === "aside") {
      copyFileSync(join(dir, "nearcast.db"), join(dir, "nearcast.db.before-restore-20261126T000000Z"));
    } else {
      expect(run(["backup", "--data-dir", dir]).code).toBe(0);
    }
    rmSync(join(dir, "nearcast.db"));
    return dir;
  };

  for (const what of ["aside", "backups"] as const) {
    test(`holding ${what === "aside" ? "a set-aside database" : "backups"}: serve, migrate and users create refuse (exit 2), pointing at restore`, () => {
      const dir = lost(what);
      for (const args of [["serve", "--port", "0", "--host", "127.0.0.1"], ["migrate"], ["users", "create", "--email", "a@example.com", "--password", "battery staple 1"]]) {
        const r = run([...args, "--data-dir", dir]);
        expect({ args, code: r.code }).toEqual({ args, code: 2 });
        expect(r.err).toStartWith(`nearcast: ${join(dir, "nearcast.db")} is missing, but ${dir} holds `);
        expect(r.err).toContain(`: restore a backup with \`nearcast restore `);
        expect(r.err).toContain(` --data-dir ${dir}\` rather than start an empty shop`);
        expect(existsSync(join(dir, "nearcast.db"))).toBe(false);
      }
    });
  }

  test("a new install (an empty folder) starts as before", () => {
    const dir = join(work, "brand-new");
    mkdirSync(dir);
    expect(run(["migrate", "--data-dir", dir]).code).toBe(0);
    expect(existsSync(join(dir, "nearcast.db"))).toBe(true);
  });
});

test("restore without --data-dir (no NEARCAST_DATA_DIR, no service env file) refuses and creates nothing", () => {
  const dir = shop("Eta");
  const file = join(work, "eta.tar.gz");
  expect(run(["backup", "--out", file, "--data-dir", dir]).code).toBe(0);
  const cwd = join(work, "elsewhere");
  mkdirSync(cwd);
  const r = run(["restore", file], cwd);
  expect(r.code).toBe(2);
  expect(r.err).toBe(`nearcast: which data dir should the backup replace? Name it with --data-dir (or NEARCAST_DATA_DIR); ${join(work, "no-such.env")}, where the service's is written, names none\n`);
  expect(readdirSync(cwd)).toEqual([]);
});
