// Issue 21 item 6: a scheduled backup that cannot use <data-dir>/backups (an older `sudo nearcast backup` left it to
// root, so the service's user may not read it; here a file in its place, which even root cannot list) is a warning in
// words, and serve goes on: no unhandled rejection, no crash loop, no stack in the log. The next look tries again.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startScheduledBackups } from "../../cli/scheduled-backups.ts";
import { loadConfig } from "../../src/config.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { nearcastCommand, tempDataDirs } from "../helpers/cli.ts";
import { until } from "../helpers/until.ts";

const dirs = tempDataDirs("nearcast-scheduled-backup-errors");
afterAll(() => dirs.removeAll());

test("backups/ unusable: one warning naming it in words; the process goes on", async () => {
  const dir = dirs.make();
  writeFileSync(join(dir, "backups"), "not a folder");
  const rejections: unknown[] = [];
  const onRejection = (e: unknown) => rejections.push(e);
  process.on("unhandledRejection", onRejection);
  const logger = new MemoryLogger();
  const schedule = startScheduledBackups(loadConfig({ NEARCAST_BACKUP_EVERY: "24h" }, { dataDir: dir }), logger, { firstCheckMs: 1, nearcast: nearcastCommand([]) });
  try {
    await until(() => logger.lines.length > 0, 15_000, "the scheduled backup's look");
  } finally {
    schedule.stop();
    process.off("unhandledRejection", onRejection);
  }
  expect(rejections).toEqual([]);
  expect(logger.lines).toHaveLength(1);
  expect(logger.lines[0]).toStartWith(`warn scheduled backup failed: cannot use ${join(dir, "backups")} (a part of the path is not a folder); nearcast runs as `);
  expect(logger.lines[0]).not.toMatch(/ENOTDIR|EACCES|\n/);
});
