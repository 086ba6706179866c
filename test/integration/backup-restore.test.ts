// `nearcast backup`, `restore` and `migrate` as a user runs them (real processes on real data directories), and what
// a restored backup does at the fake Twilio: nobody gets a message twice.
import { afterAll, describe, expect, jest, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { startScheduledBackups } from "../../cli/scheduled-backups.ts";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { type AppContext, createContext } from "../../src/context.ts";
import type { BackupManifest } from "../../src/db/backup.ts";
import { holdServeLock, lockPathFor, tryLock } from "../../src/db/lock.ts";
import { KNOWN_SCHEMA } from "../../src/db/schema-version.ts";
import { openDb } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { nextTurn } from "../../src/lib/next-turn.ts";
import { cliEnv, json, nearcast, nearcastCommand, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { until } from "../helpers/until.ts";
import { broadcastIn, fakeTwilioForFile, shopWithSubscribers } from "../helpers/worlds.ts";

const dirs = tempDataDirs("nearcast-backup");
const fake = fakeTwilioForFile({ resetEach: true });
afterAll(async () => {
  dirs.removeAll();
});

const tarList = (file: string) => Bun.spawnSync(["tar", "-tzf", file], { stdout: "pipe" }).stdout.toString().trim().split("\n").sort();
const tarRead = (file: string, entry: string) => Bun.spawnSync(["tar", "-xzOf", file, entry], { stdout: "pipe" }).stdout.toString();
const count = (dataDir: string, table: string) => withDataDir(dataDir, (ctx) => (ctx.db.$client.query(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n);

/** One SQL statement's first value, read by another process (this one may hold the file open under an old name:
 * SQLite's per-process lock bookkeeping follows the inode). */
function sqliteIn(path: string, query: string): string {
  const script = `const { Database } = require("bun:sqlite"); const db = new Database(process.argv[1]); console.log(Object.values(db.query(process.argv[2]).get() ?? {})[0]); db.close();`;
  const r = Bun.spawnSync([process.execPath, "-e", script, path, query], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return r.stdout.toString().trim();
}

/** A shop in `dataDir`: an owner (an email no other shop there has), a business with `n` subscribers. */
const shop = (dataDir: string, n = 3) =>
  withDataDir(dataDir, (ctx) => shopWithSubscribers(ctx, n, { owner: { email: `owner-${Math.random().toString(36).slice(2)}@example.com` } }));

describe("nearcast backup", () => {
  test("one .tar.gz: a manifest with version, schema and counts, the database (integrity ok) and the uploads", () => {
    const dir = dirs.make();
    shop(dir, 3);
    mkdirSync(join(dir, "uploads"), { recursive: true });
    writeFileSync(join(dir, "uploads", "logo-1.png"), "png bytes");
    const out = join(dir, "..", `${readdirSync(join(dir, "..")).length}-shop.tar.gz`);
    const run = json(nearcast(["backup", "--out", out, "--json"], dir));
    expect(run.file).toBe(out);
    expect(tarList(out)).toEqual(["manifest.json", "nearcast.db", "uploads/", "uploads/logo-1.png"]);
    const manifest = JSON.parse(tarRead(out, "manifest.json")) as BackupManifest;
    expect(manifest).toMatchObject({ format: "nearcast-backup/1", schema: KNOWN_SCHEMA, uploads: 1 });
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+\+/);
    expect(manifest.counts).toMatchObject({ users: 1, businesses: 1, customers: 3, subscriptions: 3 });
    const plain = nearcast(["backup", "--out", `${out}.2.tar.gz`], dir);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^Wrote .*\.2\.tar\.gz: [\d.]+ MB, database schema \d+, integrity ok: 1 user\(s\), 1 business\(es\), 3 customer\(s\)/);
  });

  test("by default into <data-dir>/backups; a folder without a database: exit 2 naming it, nothing created", () => {
    const dir = dirs.make();
    expect(nearcast(["backup"], dir).code).toBe(0);
    expect(readdirSync(join(dir, "backups")).filter((n) => n.endsWith(".tar.gz"))).toHaveLength(1);
    const empty = dirs.makeEmpty();
    const missing = join(empty, "typo");
    const run = nearcast(["backup"], missing);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`nearcast: no database at ${join(missing, "nearcast.db")}: check --data-dir (or NEARCAST_DATA_DIR); \`nearcast serve\` or \`nearcast migrate\` creates one\n`);
    expect(existsSync(missing)).toBe(false);
  });

  test("20 backups while another process writes at full speed: each passes integrity_check; together they hold every committed row", async () => {
    const dir = dirs.make();
    const { business } = shop(dir, 1);
    const writer = createContext(loadConfig({}, { dataDir: dir }), { logger: new MemoryLogger() });
    let committed = 1; // the shop's own subscriber
    let stop = false;
    const writing = (async () => {
      while (!stop) {
        writer.repos.transaction(() => {
          for (let i = 0; i < 20; i++) insertSubscriber(writer, business.id);
        });
        committed += 20;
        await nextTurn();
      }
    })();
    const backup = async (i: number) => {
      const out = join(dir, `live-${i}.tar.gz`);
      // Spawned, not spawnSync: this process goes on writing while the backup runs.
      const proc = Bun.spawn(nearcastCommand(["backup", "--out", out, "--json"], dir), { env: cliEnv(), stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      expect(stderr).toBe("");
      expect(await proc.exited).toBe(0);
      const extracted = join(dir, `x-${i}`);
      mkdirSync(extracted);
      Bun.spawnSync(["tar", "-xzf", out, "-C", extracted]);
      const db = new Database(join(extracted, "nearcast.db"), { readonly: true });
      try {
        expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
        const n = (db.query("SELECT COUNT(*) AS n FROM subscriptions").get() as { n: number }).n;
        expect(n).toBe((JSON.parse(stdout).manifest as BackupManifest).counts.subscriptions);
        return n;
      } finally {
        db.close();
      }
    };
    const seen: { before: number; n: number }[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const before = committed;
        seen.push({ before, n: await backup(i) });
      }
    } finally {
      stop = true;
      await writing;
      writer.close();
    }
    // Each holds at least what was committed when it started, and the writes went on meanwhile.
    for (const s of seen) expect(s.n).toBeGreaterThanOrEqual(s.before);
    expect(seen.at(-1)!.n).toBeGreaterThan(seen[0]!.n);
    expect(await backup(20)).toBe(committed);
  }, 120_000); // 21 real processes beside a writer: minutes on a busy 2-core machine, not bunfig's 5 s
});

describe("nearcast restore", () => {
  test("the backup's data comes back; the current database, a stale -wal and the uploads are kept aside, not deleted", () => {
    const dir = dirs.make();
    shop(dir, 2);
    const out = join(dir, "..", `${Date.now()}-restore.tar.gz`);
    expect(nearcast(["backup", "--out", out], dir).code).toBe(0);
    shop(dir, 5); // written after the backup: gone after the restore
    mkdirSync(join(dir, "uploads"), { recursive: true });
    writeFileSync(join(dir, "uploads", "later.png"), "later");
    expect(sqliteIn(join(dir, "nearcast.db"), "SELECT COUNT(*) FROM subscriptions")).toBe("7");
    sqliteIn(join(dir, "nearcast.db"), "PRAGMA wal_checkpoint(TRUNCATE)");
    // A WAL left by a crash: beside the restored file it would be replayed into it and corrupt it.
    writeFileSync(join(dir, "nearcast.db-wal"), Buffer.alloc(4096, 7));

    const run = nearcast(["restore", out], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Restored ${out}`);
    expect(run.stdout).toContain("No broadcast was unfinished.");
    // (A -shm goes aside too when there is one.)
    const aside = readdirSync(dir).filter((n) => n.includes(".before-restore-") && !n.includes("-shm")).sort();
    expect(aside.map((n) => n.replace(/\d{8}T\d{6}Z/, "T"))).toEqual(["nearcast.db-wal.before-restore-T", "nearcast.db.before-restore-T", "uploads.before-restore-T"]);
    expect(readFileSync(join(dir, aside[0]!))).toEqual(Buffer.alloc(4096, 7));
    expect(existsSync(join(dir, "uploads", "later.png"))).toBe(false);
    expect(sqliteIn(join(dir, "nearcast.db"), "SELECT COUNT(*) FROM subscriptions")).toBe("2");
    expect(sqliteIn(join(dir, "nearcast.db"), "PRAGMA integrity_check")).toBe("ok");
    // What was kept aside is the database as it was, whole.
    expect(sqliteIn(join(dir, aside[1]!), "SELECT COUNT(*) FROM subscriptions")).toBe("7");
  });

  test("the inbox's pictures (uploads/inbox) go into the backup and come back with the restore, private", () => {
    const dir = dirs.make();
    shop(dir, 1);
    mkdirSync(join(dir, "uploads", "inbox"), { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, "uploads", "inbox", "reply-photo.jpg"), "jpeg bytes", { mode: 0o600 });
    const out = join(dir, "..", `${Date.now()}-inbox.tar.gz`);
    expect(nearcast(["backup", "--out", out], dir).code).toBe(0);
    expect(tarList(out)).toContain("uploads/inbox/reply-photo.jpg");
    rmSync(join(dir, "uploads", "inbox"), { recursive: true });

    const run = nearcast(["restore", out], dir);
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, "uploads", "inbox", "reply-photo.jpg"), "utf8")).toBe("jpeg bytes");
    // Opening the data dir (any command) makes a folder left wider searchable by its owner only (0700), its files 0600.
    chmodSync(join(dir, "uploads", "inbox"), 0o755);
    chmodSync(join(dir, "uploads", "inbox", "reply-photo.jpg"), 0o644);
    expect(nearcast(["doctor"], dir).code).toBeLessThan(3);
    expect(statSync(join(dir, "uploads", "inbox")).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "uploads", "inbox", "reply-photo.jpg")).mode & 0o777).toBe(0o600);
  });

  test("refused while a server holds the data dir, and for a file that is not a backup: nothing changes", () => {
    const dir = dirs.make();
    shop(dir, 1);
    const out = join(dir, "..", `${Date.now()}-busy.tar.gz`);
    expect(nearcast(["backup", "--out", out], dir).code).toBe(0);
    // The dispatching server holds the dispatcher lock; every server, one standing by too, the serve lock.
    for (const hold of [() => tryLock(lockPathFor(dir))!, () => holdServeLock(dir)]) {
      const lock = hold();
      try {
        const busy = nearcast(["restore", out], dir);
        expect(busy.code).toBe(1);
        expect(busy.stderr).toBe(`nearcast: a nearcast server is running on ${dir}: stop it first (e.g. systemctl stop nearcast)\n`);
      } finally {
        lock.release();
      }
    }
    const junk = join(dir, "..", `${Date.now()}-junk.tar.gz`);
    writeFileSync(junk, "not a tarball");
    const bad = nearcast(["restore", junk], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toStartWith(`nearcast: ${junk} is not a nearcast backup (`);
    const none = nearcast(["restore", join(dir, "nope.tar.gz")], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`nearcast: ${join(dir, "nope.tar.gz")}: no such backup file\n`);
    expect(readdirSync(dir).some((n) => n.includes("before-restore"))).toBe(false);
    expect(count(dir, "subscriptions")).toBe(1);
  });

  test("a backup taken mid-broadcast: what was sent after it is found at Twilio, not sent again; the rest goes once", async () => {
    const dir = dirs.make();
    const { business, phones } = shop(dir, 3);
    const env = { ...fake.settings(), NEARCAST_PUBLIC_URL: "https://deals.example.com", NEARCAST_SEND_RATE: "50", NEARCAST_QUIET_HOURS: "off", NEARCAST_MAX_PER_DAY: "0" };
    const open = () => createContext(loadConfig(env, { dataDir: dir }), { logger: new MemoryLogger() });
    let ctx: AppContext = open();
    const { id: broadcastId } = await broadcastIn(ctx, "queued", { businessId: business.id, text: "Half-price rye until noon" });
    ctx.close();

    const out = join(dir, "..", `${Date.now()}-mid.tar.gz`);
    expect(nearcast(["backup", "--out", out], dir).code).toBe(0);

    // After the backup the server sent all three, then its disk died. At Twilio, one of them never arrived.
    ctx = open();
    ctx.dispatcher.start();
    await until(() => ctx.repos.broadcasts.findById(broadcastId)?.completedAt != null, 10_000, "the first broadcast run");
    await ctx.dispatcher.stop();
    ctx.close();
    expect(fake.sends()).toHaveLength(3);
    const lost = [...fake.messages.values()].find((m) => m.to === phones[2])!;
    fake.messages.delete(lost.sid);

    const restored = nearcast(["restore", out], dir, cliEnv(env));
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`Unfinished broadcasts: #${broadcastId}. 3 message(s) will be checked with the provider before anything is sent again`);

    ctx = open();
    try {
      ctx.dispatcher.start();
      await until(() => ctx.repos.broadcasts.findById(broadcastId)?.completedAt != null, 15_000, "the restored broadcast");
      const sendsTo = (phone: string) => fake.sends().filter((r) => r.form.To === phone).length;
      expect(phones.map(sendsTo)).toEqual([1, 1, 2]);
      const rows = ctx.repos.deliveries.listByBroadcast(broadcastId);
      expect(rows.map((r) => r.status)).toEqual(["Sent", "Sent", "Sent"]);
      for (const r of rows) expect(fake.messages.get(r.providerId!)?.to).toBe(r.toPhone);
    } finally {
      await ctx.dispatcher.stop();
      ctx.close();
    }
  });
});

describe("upgrades and downgrades", () => {
  /** A database an older nearcast made: every migration but the last. */
  function olderDatabase(): string {
    const dir = dirs.makeEmpty();
    const db = openDb(join(dir, "nearcast.db"));
    migrate(db, KNOWN_SCHEMA - 1);
    db.$client.close();
    return dir;
  }

  test("a command on a database that needs migrating says to run migrate, exit 2; migrate backs it up and upgrades it", () => {
    const dir = olderDatabase();
    const list = nearcast(["users", "list"], dir);
    expect(list.code).toBe(2);
    expect(list.stderr).toBe(`nearcast: ${join(dir, "nearcast.db")} has database schema ${KNOWN_SCHEMA - 1}; this nearcast (version ${list.stderr.match(/version (\S+)\)/)?.[1]}) needs ${KNOWN_SCHEMA}: run \`nearcast migrate --data-dir ${dir}\` first\n`);
    const migrate = nearcast(["migrate"], dir);
    expect(migrate.stderr).toBe("");
    expect(migrate.code).toBe(0);
    expect(migrate.stdout).toContain(`before upgrading the database from schema ${KNOWN_SCHEMA - 1} to ${KNOWN_SCHEMA}: backup ${join(dir, "backups")}/nearcast-`);
    expect(migrate.stdout).toContain(`database upgraded from schema ${KNOWN_SCHEMA - 1} to ${KNOWN_SCHEMA}`);
    expect(readdirSync(join(dir, "backups")).filter((n) => n.endsWith(".tar.gz"))).toHaveLength(1);
    expect(nearcast(["users", "list"], dir).code).toBe(0);
    expect(nearcast(["migrate"], dir).stdout).toBe(`${join(dir, "nearcast.db")} is at database schema ${KNOWN_SCHEMA} already; nothing to do.\n`);
  });

  test("a database from a newer nearcast is refused by every command, serve and migrate included, naming both schemas", () => {
    const dir = dirs.make();
    withDataDir(dir, (ctx) => ctx.db.$client.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('from-the-future', 4102444800000)"));
    for (const args of [["users", "list"], ["migrate"], ["backup"], ["serve", "--port", "0"]]) {
      const run = nearcast(args, dir);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^nearcast: .*nearcast\\.db has database schema ${KNOWN_SCHEMA + 1}, newer than this nearcast's ${KNOWN_SCHEMA} \\(version [^)]+\\): run the newer nearcast that upgraded it\\n$`));
    }
  });

  test("users create and migrate may create a database; other commands never do", () => {
    const empty = dirs.makeEmpty();
    const a = join(empty, "a");
    expect(nearcast(["users", "create", "--email", "first@example.com", "--password", "secret1"], a).code).toBe(0);
    expect(existsSync(join(a, "nearcast.db"))).toBe(true);
    const b = join(empty, "b");
    expect(nearcast(["migrate"], b).stdout).toBe(`Created ${join(b, "nearcast.db")} at database schema ${KNOWN_SCHEMA}.\n`);
    for (const args of [["users", "list"], ["business-types", "list"], ["settings", "get"], ["doctor"], ["businesses", "list"]]) {
      const c = join(empty, `c-${args.join("-")}`);
      const run = nearcast(args, c);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toContain(`no database at ${join(c, "nearcast.db")}`);
      expect(existsSync(c)).toBe(false);
    }
  });
});

describe("serve's scheduled backups (NEARCAST_BACKUP_EVERY, NEARCAST_BACKUP_KEEP)", () => {
  test("a backup when the newest is older than the interval, none when it is fresh; only the newest KEEP stay", async () => {
    const dir = dirs.make();
    const config = loadConfig({ NEARCAST_BACKUP_EVERY: "24h", NEARCAST_BACKUP_KEEP: "2" }, { dataDir: dir });
    expect(config.backupEveryMs).toBe(24 * 3_600_000);
    mkdirSync(join(dir, "backups"));
    // Two older backups, three and two days old.
    for (const [name, daysAgo] of [["nearcast-20261101T000000Z.tar.gz", 3], ["nearcast-20261102T000000Z.tar.gz", 2]] as const) {
      const file = join(dir, "backups", name);
      writeFileSync(file, "old");
      const t = (Date.now() - daysAgo * 86_400_000) / 1000;
      utimesSync(file, t, t);
    }
    const logger = new MemoryLogger();
    const schedule = startScheduledBackups(config, logger, { firstCheckMs: 1, nearcast: nearcastCommand([]) });
    try {
      await until(() => logger.lines.some((l) => l.includes("removed the old")), 15_000, "the scheduled backup");
    } finally {
      schedule.stop();
    }
    const names = readdirSync(join(dir, "backups")).filter((n) => n.endsWith(".tar.gz")).sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toBe("nearcast-20261102T000000Z.tar.gz");
    expect(tarList(join(dir, "backups", names[1]!))).toContain("manifest.json");
    expect(logger.lines.find((l) => l.startsWith("info scheduled backup: Wrote "))).toBeDefined();
    expect(logger.lines).toContain(`info scheduled backup: removed the old ${join(dir, "backups", "nearcast-20261101T000000Z.tar.gz")}`);

    // The newest is fresh now: the next look writes nothing.
    // On the fake clock the first look runs when the clock passes it, and a look that finds a fresh backup is over
    // before it returns (nothing to wait for).
    const quiet = new MemoryLogger();
    jest.useFakeTimers();
    try {
      const again = startScheduledBackups(config, quiet, { firstCheckMs: 1, nearcast: nearcastCommand([]) });
      jest.advanceTimersByTime(1);
      again.stop();
    } finally {
      jest.useRealTimers();
    }
    expect(quiet.lines).toEqual([]);
    expect(readdirSync(join(dir, "backups")).filter((n) => n.endsWith(".tar.gz")).sort()).toEqual(names);
  }, 60_000); // a real `nearcast backup` child process: seconds on a busy 2-core machine

  test("NEARCAST_BACKUP_EVERY: off, or at least 10 minutes in m, h or d", () => {
    expect(loadConfig({ NEARCAST_BACKUP_EVERY: "off" }).backupEveryMs).toBeNull();
    expect(loadConfig({}).backupEveryMs).toBe(86_400_000);
    expect(loadConfig({ NEARCAST_BACKUP_EVERY: "7d" }).backupEveryMs).toBe(7 * 86_400_000);
    expect(() => loadConfig({ NEARCAST_BACKUP_EVERY: "5m" })).toThrow('NEARCAST_BACKUP_EVERY must be off or a duration of at least 10 minutes such as 30m, 24h or 7d (got "5m")');
    expect(() => loadConfig({ NEARCAST_BACKUP_EVERY: "daily" })).toThrow("NEARCAST_BACKUP_EVERY must be off");
    expect(() => loadConfig({ NEARCAST_BACKUP_KEEP: "0" })).toThrow("NEARCAST_BACKUP_KEEP");
  });
});

test("serve refuses a damaged database with one line naming the file and pointing at restore; nothing is served", () => {
  const dir = dirs.make();
  shop(dir, 30);
  sqliteIn(join(dir, "nearcast.db"), "PRAGMA wal_checkpoint(TRUNCATE)");
  // Garbage over the middle of the file: some table's pages.
  const path = join(dir, "nearcast.db");
  const bytes = readFileSync(path);
  bytes.fill(0x5a, 4096 * 3, 4096 * 6);
  writeFileSync(path, bytes);
  const run = nearcast(["serve", "--port", "0", "--host", "127.0.0.1"], dir);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe("");
  expect(run.stderr).toMatch(new RegExp(`^nearcast: ${path.replaceAll("/", "\\/")} is damaged \\(quick_check: [^\\n]+\\): restore a backup with \`nearcast restore FILE --data-dir ${dir.replaceAll("/", "\\/")}\`\\n$`));
});
