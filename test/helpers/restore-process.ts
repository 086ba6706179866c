// A restore (src/db/restore.ts, with the CLI's own prepare) run by a process of its own, failing or killed at a step
// when told: the test's process keeps no SQLite connection to the files it watches (see shop-process.ts), and a kill
// is a real SIGKILL. Prints the result as JSON, or the error on stderr (exit 1).
// Run as a script: bun test/helpers/restore-process.ts BACKUP DATA_DIR NOW_ISO [fail|kill] [STEP]
import { prepareRestored } from "../../cli/commands/backup.ts";
import { loadConfig } from "../../src/config.ts";
import { type RestoreStep, restoreBackup } from "../../src/db/restore.ts";

export interface RestoreRun {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

export function restoreInProcess(backup: string, dataDir: string, now: Date, fault?: { kind: "fail" | "kill"; step: RestoreStep }): RestoreRun {
  const args = [backup, dataDir, now.toISOString(), ...(fault ? [fault.kind, fault.step] : [])];
  const r = Bun.spawnSync([process.execPath, import.meta.path, ...args], { stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, signal: r.signalCode == null ? null : String(r.signalCode), stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

if (import.meta.main) {
  const [backup, dataDir, nowIso, kind, step] = process.argv.slice(2) as [string, string, string, string?, string?];
  const now = new Date(nowIso);
  const config = loadConfig({}, { dataDir });
  try {
    const done = restoreBackup(backup, dataDir, now, {
      onStep: (s) => {
        if (s !== step) return;
        if (kind === "kill") process.kill(process.pid, "SIGKILL");
        throw new Error(`injected failure at ${s}`);
      },
      prepare: (db, manifest) => prepareRestored(config, db, manifest, now),
    });
    process.stdout.write(`${JSON.stringify({ movedAside: done.movedAside })}\n`);
    process.exit(0);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }
}
