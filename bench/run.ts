// Runs every benchmark in bench/ one after another (never in parallel: they would measure each other), each in its
// own process with its default settings, and ends with one line per bench. A bench is any bench/*.ts except this
// file and files starting with "_" or ".". Build first: the benches measure dist/nearcast.
//
//   npx bun scripts/build.ts && npx bun bench/run.ts            (all)
//   npx bun bench/run.ts startup poster                         (only these)
import { readdirSync } from "node:fs";
import { join } from "node:path";

const PER_BENCH_LIMIT_MS = 10 * 60_000;

const all = readdirSync(import.meta.dir)
  .filter((f) => f.endsWith(".ts") && f !== "run.ts" && !/^[._]/.test(f))
  .map((f) => f.slice(0, -3))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length) {
  console.error(`unknown bench: ${unknown.join(", ")} (have: ${all.join(", ")})`);
  process.exit(2);
}
const benches = wanted.length ? wanted : all;

const summary: string[] = [];
let failed = 0;
for (const name of benches) {
  console.log(`\n=== bench/${name}.ts ===\n`);
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, `${name}.ts`)], { stdout: "inherit", stderr: "inherit" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), PER_BENCH_LIMIT_MS);
  const code = await proc.exited;
  clearTimeout(timer);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  if (code !== 0) failed++;
  summary.push(`${name.padEnd(16)} ${code === 0 ? "ok" : `FAILED (exit ${code})`} in ${seconds} s`);
}
console.log(`\n=== summary ===\n${summary.join("\n")}`);
process.exit(failed ? 1 : 0);
