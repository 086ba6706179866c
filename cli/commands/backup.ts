import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Command } from "commander";
import { type Config, loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { type BackupResult, defaultBackupPath, writeBackup } from "../../src/db/backup.ts";
import { dbFileIn } from "../../src/db/client.ts";
import { KNOWN_SCHEMA } from "../../src/db/schema-version.ts";
import { isLocked, isServed, lockPathFor } from "../../src/db/lock.ts";
import { restoreBackup } from "../../src/db/restore.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { ValidationError } from "../../src/errors.ts";
import { dataDirOption, examples, printJson, usageExit, withContext } from "../context.ts";
import { fileProblem } from "../file-errors.ts";

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
export function backupBeforeUpgrade(config: Config, report: (line: string) => void) {
  return (sqlite: Parameters<typeof writeBackup>[0], from: number, to: number) => {
    const now = new Date();
    const r = writeBackup(sqlite, config.dataDir, defaultBackupPath(config.dataDir, now), now);
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
          r = writeBackup(ctx.db.$client, ctx.config.dataDir, out, now);
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
      `\nStop the server first. Nothing is deleted: the current nearcast.db (and its -wal, -shm) and uploads are renamed\n` +
        `*.before-restore-<time>. Messages the backup had not finished are checked with Twilio before anything is sent,\n` +
        `so nobody gets a message twice.\n` +
        examples("sudo systemctl stop nearcast && nearcast restore /var/lib/nearcast/backups/nearcast-20261126T031500Z.tar.gz --data-dir /var/lib/nearcast"),
    )
    .action((file: string, opts: { json: boolean; dataDir?: string }) => {
      const config = loadConfig(process.env, { dataDir: opts.dataDir });
      if (isServed(config.dataDir) || isLocked(lockPathFor(config.dataDir))) {
        throw new Error(`a nearcast server is running on ${config.dataDir}: stop it first (e.g. systemctl stop nearcast)`);
      }
      const now = new Date();
      const restored = restoreBackup(resolve(file), config.dataDir, now);
      const ctx = createContext(config, { logger: new MemoryLogger(), database: "migrate" });
      try {
        const checked = ctx.repos.deliveries.reconcileRestored(Date.parse(restored.manifest.takenAt), now.getTime());
        const unfinished = ctx.repos.broadcasts.unfinished().map((b) => ({ id: b.id, businessId: b.businessId, total: b.total, scheduledFor: b.scheduledFor?.toISOString() ?? null }));
        const up = ctx.schemaUpgrade;
        const upgraded = up && `upgraded from schema ${up.from} to ${up.to}`;
        if (opts.json) {
          printJson({ file: resolve(file), manifest: restored.manifest, movedAside: restored.movedAside, checkWithProvider: checked, unfinishedBroadcasts: unfinished, upgraded });
          return;
        }
        const c = restored.manifest.counts;
        const lines = [
          `Restored ${resolve(file)} (taken ${restored.manifest.takenAt} by nearcast ${restored.manifest.version}): ${c.users} user(s), ${c.businesses} business(es), ${c.customers} customer(s), ${c.broadcasts} broadcast(s).`,
          ...restored.movedAside.map((p) => `Kept aside: ${p}`),
          ...(upgraded ? [`The database was ${upgraded}.`] : []),
          unfinished.length === 0
            ? "No broadcast was unfinished."
            : `Unfinished broadcasts: ${unfinished.map((b) => `#${b.id}${b.scheduledFor ? ` (scheduled ${b.scheduledFor})` : ""}`).join(", ")}. ` +
              `${checked} message(s) will be checked with the provider before anything is sent again, so nobody gets one twice.`,
          "Start the server again (e.g. systemctl start nearcast).",
        ];
        process.stdout.write(`${lines.join("\n")}\n`);
      } finally {
        ctx.close();
      }
    });
}

export function migrateCommand(): Command {
  return new Command("migrate")
    .description("bring the database to this version's schema (serve does it too); a backup is written first")
    .addOption(dataDirOption())
    .exitOverride(usageExit)
    .addHelpText("after", examples("nearcast migrate --data-dir /var/lib/nearcast"))
    .action((opts: { dataDir?: string }) => {
      const config = loadConfig(process.env, { dataDir: opts.dataDir });
      const isNew = !existsSync(dbFileIn(config.dataDir));
      const said: string[] = [];
      const ctx = createContext(config, { logger: new MemoryLogger(), database: "migrate", beforeUpgrade: backupBeforeUpgrade(config, (line) => said.push(line)) });
      ctx.close();
      const up = ctx.schemaUpgrade;
      if (isNew) process.stdout.write(`Created ${ctx.dbPath} at database schema ${KNOWN_SCHEMA}.\n`);
      else if (up) process.stdout.write(`${[...said, `database upgraded from schema ${up.from} to ${up.to}`].join("\n")}\n`);
      else process.stdout.write(`${ctx.dbPath} is at database schema ${KNOWN_SCHEMA} already; nothing to do.\n`);
    });
}
