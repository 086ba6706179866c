import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Command } from "commander";
import { type Config, ConfigError } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { BACKUPS_DIR, type BackupManifest, type BackupResult, defaultBackupPath } from "../../src/db/backup.ts";
import { dbFileIn } from "../../src/db/client.ts";
import type { BeforeUpgrade } from "../../src/db/open.ts";
import { sweepLeftovers } from "../../src/db/leftovers.ts";
import { KNOWN_SCHEMA } from "../../src/db/schema-version.ts";
import { type DispatcherLock, holdMaintenanceLock, isLocked, isServed, lockPathFor } from "../../src/db/lock.ts";
import { refuseLostDatabase, restoreBackup } from "../../src/db/restore.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { ValidationError } from "../../src/errors.ts";
import { serviceEnvFile, withServiceEnv } from "../../src/service-env.ts";
import { busyInWords, commandConfig, dataDirOption, examples, printJson, usageExit, withContext } from "../context.ts";
import { fileProblem } from "../file-errors.ts";

/** How long a backup or restore waits for another one on the same data dir to finish. */
const LOCK_WAIT_MS = 5 * 60_000;

/**
 * Runs `fn` holding the data dir's maintenance lock (one backup or restore at a time), after sweeping what a killed
 * one left in the data dir, its backups folder and `outDir`.
 */
export function maintaining<T>(dataDir: string, outDir: string | null, fn: () => T): T {
  let lock: DispatcherLock | null = holdMaintenanceLock(dataDir, 0);
  if (!lock) {
    process.stderr.write(`nearcast: waiting for the backup or restore running on ${dataDir} to finish\n`);
    lock = holdMaintenanceLock(dataDir, LOCK_WAIT_MS);
  }
  if (!lock) throw new Error(`another backup or restore is still running on ${dataDir}; try again when it has finished`);
  try {
    const swept = [...sweepLeftovers(dataDir, true), ...sweepLeftovers(join(dataDir, BACKUPS_DIR), true)];
    if (outDir && resolve(outDir) !== resolve(dataDir, BACKUPS_DIR)) swept.push(...sweepLeftovers(outDir, false));
    if (swept.length) process.stderr.write(`nearcast: removed what an interrupted backup or restore left: ${swept.join(", ")}\n`);
    return fn();
  } finally {
    lock.release();
  }
}

/** "12.3 MB: schema 14; 3 users, 2 businesses, ..." */
export function describeBackup(r: BackupResult): string {
  const c = r.manifest.counts;
  return (
    `${(r.bytes / 1024 / 1024).toFixed(1)} MB, database schema ${r.manifest.schema}, integrity ok: ${c.users} user(s), ${c.businesses} business(es), ` +
    `${c.customers} customer(s), ${c.subscriptions} subscription(s), ${c.broadcasts} broadcast(s), ${c.deliveries} delivery(ies), ` +
    `${c.consent_events} consent event(s), ${r.manifest.uploads} upload(s)`
  );
}

/** What serve and migrate do before upgrading a database's schema: a backup in <dataDir>/backups, told to `report`
 * (serve's log, migrate's output). */
export function backupBeforeUpgrade(config: Config, report: (line: string) => void): BeforeUpgrade {
  return (from, to, backup) => {
    const now = new Date();
    const out = defaultBackupPath(config.dataDir, now);
    const r = maintaining(config.dataDir, null, () => backup(out, now));
    report(`before upgrading the database from schema ${from} to ${to}: backup ${r.file} (${describeBackup(r)})`);
  };
}

export function backupCommand(): Command {
  return new Command("backup")
    .description("write a backup (database and uploads, checked) while the server runs or not")
    .option("--out <file>", "the .tar.gz to write (default <data-dir>/backups/nearcast-<time>.tar.gz)")
    .option("--json", "print what was written as JSON", false)
    .addOption(dataDirOption())
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      `\nThe database is copied with SQLite's VACUUM INTO (safe while serve writes; a plain cp is not) and checked with\n` +
        `integrity_check; the uploads folder and a manifest (version, schema, counts) go in the same .tar.gz.\n` +
        examples("nearcast backup", "nearcast backup --out /mnt/usb/nearcast-$(date +%F).tar.gz --data-dir /var/lib/nearcast"),
    )
    .action((opts: { out?: string; json: boolean; dataDir?: string }) =>
      withContext(opts, (ctx) => {
        const now = new Date();
        const out = opts.out ? resolve(opts.out) : defaultBackupPath(ctx.config.dataDir, now);
        let r: BackupResult;
        try {
          r = maintaining(ctx.config.dataDir, dirname(out), () => ctx.operator.backup(out, now));
        } catch (e) {
          if (!(e as NodeJS.ErrnoException).code) throw e;
          throw new ValidationError(`--out: cannot write ${out} (${fileProblem(e)})`);
        }
        if (opts.json) printJson(r);
        else process.stdout.write(`Wrote ${r.file}: ${describeBackup(r)}\n`);
      }),
    );
}

export function restoreCommand(): Command {
  return new Command("restore")
    .description("replace the data dir's database and uploads with a backup (the current ones are kept aside)")
    .argument("<file>", "a .tar.gz written by nearcast backup")
    .option("--json", "print what was done as JSON", false)
    .addOption(dataDirOption())
    .exitOverride(usageExit)
    .addHelpText(
      "after",
      `\nStop the server first. Name the data dir (--data-dir, NEARCAST_DATA_DIR, or the service's env file: never ./data\n` +
        `by default). Nothing is deleted: the current nearcast.db (and its -wal, -shm) and uploads are renamed\n` +
        `*.before-restore-<time>; a step that fails puts everything back. Messages the backup had not finished are\n` +
        `checked with Twilio before anything is sent, so nobody gets a message twice.\n` +
        examples("sudo systemctl stop nearcast && nearcast restore /var/lib/nearcast/backups/nearcast-20261126T031500Z.tar.gz --data-dir /var/lib/nearcast"),
    )
    .action((file: string, opts: { json: boolean; dataDir?: string }) => {
      // A restore replaces a database: the data dir must be named (or be the service's), never ./data by default.
      if (opts.dataDir === undefined && !withServiceEnv(process.env, undefined).env.NEARCAST_DATA_DIR?.trim()) {
        throw new ConfigError(`which data dir should the backup replace? Name it with --data-dir (or NEARCAST_DATA_DIR); ${serviceEnvFile(process.env)}, where the service's is written, names none`);
      }
      const config = commandConfig(opts.dataDir);
      const now = new Date();
      const path = resolve(file);
      if (!existsSync(path)) throw new ConfigError(`${path}: no such backup file`);
      const done = maintaining(config.dataDir, null, () => {
        if (isServed(config.dataDir) || isLocked(lockPathFor(config.dataDir))) {
          throw new Error(`a nearcast server is running on ${config.dataDir}: stop it first (e.g. systemctl stop nearcast)`);
        }
        try {
          return restoreBackup(path, config.dataDir, now, { prepare: (stagedDb, manifest) => prepareRestored(config, stagedDb, manifest, now) });
        } catch (e) {
          throw busyInWords(e, config.dataDir);
        }
      });
      const { checked, unfinished, upgraded } = done.prepared!;
      if (opts.json) {
        printJson({ file: path, manifest: done.manifest, movedAside: done.movedAside, checkWithProvider: checked, unfinishedBroadcasts: unfinished, upgraded });
        return;
      }
      const c = done.manifest.counts;
      const lines = [
        `Restored ${path} (taken ${done.manifest.takenAt} by nearcast ${done.manifest.version}): ${c.users} user(s), ${c.businesses} business(es), ${c.customers} customer(s), ${c.broadcasts} broadcast(s).`,
        ...done.movedAside.map((p) => `Kept aside: ${p}`),
        ...(upgraded ? [`The database was ${upgraded}.`] : []),
        unfinished.length === 0
          ? "No broadcast was unfinished."
          : `Unfinished broadcasts: ${unfinished.map((b) => `#${b.id}${b.scheduledFor ? ` (scheduled ${b.scheduledFor})` : ""}`).join(", ")}. ` +
            `${checked} message(s) will be checked with the provider before anything is sent again, so nobody gets one twice.`,
        "Start the server again (e.g. systemctl start nearcast).",
      ];
      process.stdout.write(`${lines.join("\n")}\n`);
    });
}

/** The restored database while it is still staged: brought to this schema, its unfinished deliveries marked to be
 * checked with the provider since the backup was taken; closed again before it is moved into the data dir. */
export function prepareRestored(config: Config, stagedDb: string, manifest: BackupManifest, now: Date) {
  const ctx = createContext(config, { dbPath: stagedDb, logger: new MemoryLogger(), database: "migrate" });
  try {
    const { checked, unfinished } = ctx.operator.prepareRestored(Date.parse(manifest.takenAt), now.getTime());
    const up = ctx.schemaUpgrade;
    return {
      checked,
      unfinished: unfinished.map((b) => ({ id: b.id, businessId: b.businessId, total: b.total, scheduledFor: b.scheduledFor?.toISOString() ?? null })),
      upgraded: up && `upgraded from schema ${up.from} to ${up.to}`,
    };
  } finally {
    ctx.close();
  }
}

export function migrateCommand(): Command {
  return new Command("migrate")
    .description("bring the database to this version's schema (serve does it too); a backup is written first")
    .addOption(dataDirOption())
    .exitOverride(usageExit)
    .addHelpText("after", examples("nearcast migrate --data-dir /var/lib/nearcast"))
    .action((opts: { dataDir?: string }) => {
      const config = commandConfig(opts.dataDir);
      const isNew = !existsSync(dbFileIn(config.dataDir));
      if (isNew) refuseLostDatabase(config.dataDir);
      const said: string[] = [];
      const ctx = createContext(config, { logger: new MemoryLogger(), database: "migrate", beforeUpgrade: backupBeforeUpgrade(config, (line) => said.push(line)) });
      ctx.close();
      const up = ctx.schemaUpgrade;
      if (isNew) process.stdout.write(`Created ${ctx.dbPath} at database schema ${KNOWN_SCHEMA}.\n`);
      else if (up) process.stdout.write(`${[...said, `database upgraded from schema ${up.from} to ${up.to}`].join("\n")}\n`);
      else process.stdout.write(`${ctx.dbPath} is at database schema ${KNOWN_SCHEMA} already; nothing to do.\n`);
    });
}
