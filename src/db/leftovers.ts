// What a killed backup or restore leaves behind, and its sweep. A backup stages its copy in `.staging-<pid>-*` and
// writes `.<name>.<pid>.partial` beside its output; a restore extracts into `<dataDir>/.restore-<pid>-*`. Each name
// carries the process id, so a sweep removes only those whose process is gone: a backup running beside (serve's
// scheduled one, or one writing into the same --out folder for another data dir) keeps its files. Under the data
// dir's maintenance lock (src/db/lock.ts) the untagged names an older nearcast used are swept too.
import { readdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const TAGGED = /^\.(?:staging|restore)-(\d+)-[A-Za-z0-9]+$|^\..+\.(\d+)\.partial$/;
const UNTAGGED = /^\.(?:staging|restore)-[A-Za-z0-9]{6}$|^\.nearcast-.+\.tar\.gz\.partial$/;

/** The prefix for mkdtempSync of a staging folder of this process. */
export function stagingPrefix(dir: string, kind: "staging" | "restore"): string {
  return join(dir, `.${kind}-${process.pid}-`);
}

/** Where a backup is written before it is complete and renamed to `out`. */
export function partialPathFor(out: string): string {
  return join(dirname(out), `.${basename(out)}.${process.pid}.partial`);
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes from `dir` the leftovers of backups and restores whose process is gone (and, `untagged`, the names of
 * older versions: only under the maintenance lock of the data dir they belong to). The paths removed.
 */
export function sweepLeftovers(dir: string, untagged: boolean): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = TAGGED.exec(name);
    const pid = m ? Number(m[1] ?? m[2]) : null;
    if (pid !== null ? alive(pid) : !(untagged && UNTAGGED.test(name))) continue;
    const path = join(dir, name);
    try {
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Not ours to remove after all (another user's): left as it is.
    }
  }
  return removed;
}
