// Issue 21 item 4, on real data dirs: a restore that fails at any step leaves the data dir exactly as it was (every
// step failed in turn through restoreBackup's onStep hook, the same code the CLI runs, with the CLI's own prepare);
// a restore killed (SIGKILL) at a step leaves a staging folder that the next backup sweeps; two restores in the same
// second keep both sets of set-aside files.
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RESTORE_STEPS } from "../../src/db/restore.ts";
import { nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { restoreInProcess } from "../helpers/restore-process.ts";
import { addShopInProcess } from "../helpers/shop-process.ts";

const dirs = tempDataDirs("nearcast-restore-steps");
afterAll(() => dirs.removeAll());

/** What a restore sets aside when it is there, in its order. */
const OLD = ["nearcast.db-wal", "nearcast.db-shm", "nearcast.db", "uploads"];

/** Every entry under `dir`: its kind, and for a file its bytes' hash ("exactly as it was"). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
    const path = join(dir, name);
    const st = lstatSync(path);
    out[name] = st.isDirectory() ? "dir" : st.isSymbolicLink() ? "link" : createHash("sha256").update(readFileSync(path)).digest("hex");
  }
  return out;
}

const subscriptions = (dataDir: string) => withDataDir(dataDir, (ctx) => (ctx.db.$client.query("SELECT COUNT(*) AS n FROM subscriptions").get() as { n: number }).n);
// (Only ever on a copy in a folder of its own: see test/helpers/shop-process.ts.)

/** The subscriptions in a database file, counted on a copy (opening the file where it is would change its folder). */
function subscriptionsIn(file: string): number {
  const probe = dirs.makeEmpty();
  writeFileSync(join(probe, "nearcast.db"), readFileSync(file));
  return subscriptions(probe);
}

/** A data dir with `n` subscribers, an upload and a stale -wal, and a backup of it taken when it had `atBackup`. */
function shopWithBackup(atBackup: number, later: number): { dir: string; backup: string } {
  const dir = dirs.make();
  const add = (n: number) => addShopInProcess(dir, n);
  add(atBackup);
  mkdirSync(join(dir, "uploads"));
  writeFileSync(join(dir, "uploads", "logo.png"), "at backup time");
  const backup = join(dir, "backups", "nearcast-20261126T120000Z.tar.gz");
  expect(nearcast(["backup", "--out", backup], dir).code).toBe(0);
  add(later);
  writeFileSync(join(dir, "uploads", "later.png"), "after the backup");
  // A WAL left by a crash (not a valid one: SQLite ignores it; beside the restored file it must never stay).
  writeFileSync(join(dir, "nearcast.db-wal"), Buffer.alloc(4096, 7));
  return { dir, backup };
}

describe("a restore that fails at a step leaves the data dir exactly as it was", () => {
  const { dir, backup } = shopWithBackup(2, 3);

  for (const step of RESTORE_STEPS) {
    test(`failing at ${step}`, () => {
      const before = snapshot(dir);
      const run = restoreInProcess(backup, dir, new Date(), { kind: "fail", step });
      expect(run).toMatchObject({ code: 1, stderr: `injected failure at ${step}\n` });
      expect(snapshot(dir)).toEqual(before);
      expect(subscriptionsIn(join(dir, "nearcast.db"))).toBe(5);
    });
  }

  test("and with no failure, the same call restores (the harness above can succeed)", () => {
    const present = OLD.filter((n) => existsSync(join(dir, n)));
    const run = restoreInProcess(backup, dir, new Date());
    expect(run.stderr).toBe("");
    const { movedAside } = JSON.parse(run.stdout) as { movedAside: string[] };
    expect(movedAside.map((p) => p.slice(dir.length + 1).replace(/\d{8}T\d{6}Z/, "T"))).toEqual(present.map((n) => `${n}.before-restore-T`));
    expect(present).toEqual(expect.arrayContaining(["nearcast.db", "uploads"]));
    expect(subscriptionsIn(join(dir, "nearcast.db"))).toBe(2);
    expect(readdirSync(join(dir, "uploads"))).toEqual(["logo.png"]);
    expect(readdirSync(dir).filter((n) => n.startsWith(".restore-"))).toEqual([]);
  });
});

test("two restores in the same second: each sets the database aside under its own name; nothing is overwritten", () => {
  const { dir, backup } = shopWithBackup(1, 1);
  const now = new Date("2026-11-26T12:30:00Z");
  /** The restore's set-aside names, and the ones it should have (what of the old database was there). */
  const restore = () => {
    const present = OLD.filter((n) => existsSync(join(dir, n)));
    const { movedAside } = JSON.parse(restoreInProcess(backup, dir, now).stdout) as { movedAside: string[] };
    return { present, names: movedAside.map((p) => p.slice(dir.length + 1)) };
  };
  const first = restore();
  addShopInProcess(dir, 1); // the restored shop goes on
  const second = restore();
  expect(first.names).toEqual(first.present.map((n) => `${n}.before-restore-20261126T123000Z`));
  expect(second.names).toEqual(second.present.map((n) => `${n}.before-restore-20261126T123000Z-2`));
  expect(second.present).toEqual(expect.arrayContaining(["nearcast.db", "uploads"]));
  // Both set-aside databases are whole: the shop before the first restore (2), and the restored one after it (1 + 1).
  expect(subscriptionsIn(join(dir, "nearcast.db.before-restore-20261126T123000Z"))).toBe(2);
  expect(subscriptionsIn(join(dir, "nearcast.db.before-restore-20261126T123000Z-2"))).toBe(2);
  expect(subscriptionsIn(join(dir, "nearcast.db"))).toBe(1);
});

test("a restore killed (SIGKILL) at a step leaves only its staging folder, which the next backup sweeps", () => {
  for (const step of ["extract", "check", "prepare"] as const) {
    const { dir, backup } = shopWithBackup(1, 0);
    const before = snapshot(dir);
    expect(restoreInProcess(backup, dir, new Date(), { kind: "kill", step })).toMatchObject({ signal: "SIGKILL", stderr: "" });
    const left = readdirSync(dir).filter((n) => !(n in before));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^\.restore-\d+-/);
    const next = nearcast(["backup"], dir);
    expect(next.code).toBe(0);
    expect(next.stderr).toBe(`nearcast: removed what an interrupted backup or restore left: ${join(dir, left[0]!)}\n`);
    expect(readdirSync(dir).filter((n) => n.startsWith("."))).toEqual([]);
  }
}, 60_000);
