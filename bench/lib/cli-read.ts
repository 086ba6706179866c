// The CLI read of bench/startup.ts (issue 26 item 6): `business-types list --json` of each build of nearcast, spawn to
// exit, alternated with the baseline "bun + sqlite print", an executable compiled with the same flags as dist/nearcast
// that prints the same JSON from bun:sqlite. One untimed run each first; the bench says so if the outputs differ.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileExecutable } from "../../scripts/build.ts";

const SQLITE_PRINT = `// bench baseline: what \`nearcast business-types list --json\` prints, read with bun:sqlite
import { Database } from "bun:sqlite";
const db = new Database(process.argv[2], { readwrite: true, strict: true });
db.exec("PRAGMA busy_timeout = 5000");
const rows = db.query("SELECT id, name, description, is_active AS isActive, created_at AS createdAt FROM business_types ORDER BY name").all();
const types = rows.map((r) => ({ ...r, isActive: r.isActive === 1, createdAt: new Date(r.createdAt).toISOString() }));
process.stdout.write(JSON.stringify(types, null, 2) + "\\n");
`;

/** Ms from spawn to exit of a read command (opens the database, prints JSON, exits), and what it printed. */
function cliStart(cmd: string[], cwd: string, budget: () => void): { ms: number; out: string } {
  budget();
  const started = performance.now();
  const res = Bun.spawnSync(cmd, { cwd, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - started;
  if (res.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${res.stderr.toString()}`);
  return { ms, out: res.stdout.toString() };
}

/** `business-types list --json` of a build on the data dir. */
const cliCommand = (bin: string, dataDir: string) => [bin, "business-types", "list", "--json", "--data-dir", dataDir];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Median ms of each build's read and of the baseline's, over `rounds` rotated rounds; `budget` throws when the
 * bench has run too long. */
export function timeCliReads(work: string, cwd: string, dataDir: string, builds: { name: string; bin: string }[], rounds: number, budget: () => void) {
  writeFileSync(join(work, "sqlite-print.ts"), SQLITE_PRINT);
  compileExecutable(join(work, "sqlite-print.ts"), join(work, "sqlite-print"), { cwd: work, quiet: true });
  const baseline = "bun + sqlite print (baseline)";
  const clis = [{ name: baseline, cmd: [join(work, "sqlite-print"), join(dataDir, "nearcast.db")] }, ...builds.map((b) => ({ name: b.name, cmd: cliCommand(b.bin, dataDir) }))];
  const printed = clis.map((c) => cliStart(c.cmd, cwd, budget).out);
  if (printed.some((out) => out !== printed[0])) console.error("note: the CLI baseline does not print exactly what nearcast prints");
  const times = new Map<string, number[]>(clis.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < clis.length; k++) {
      const c = clis[(round + k) % clis.length]!;
      times.get(c.name)!.push(cliStart(c.cmd, cwd, budget).ms);
    }
  }
  const medians = new Map([...times].map(([name, ms]) => [name, median(ms)]));
  return { medians, baselineMs: medians.get(baseline)! };
}
