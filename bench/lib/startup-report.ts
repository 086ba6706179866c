// The output of bench/startup.ts: one row per subject (start, idle RSS and its parts, health p50), the ratios to the
// baselines, the CLI read against its baseline, and the targets of issue 26 items 2 and 6 met or missed.
import { readFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";
import { COMPILE_FLAGS } from "../../scripts/build.ts";

export interface SubjectResult {
  name: string;
  runs: number;
  startMs: { median: number; min: number; max: number };
  rssMb: { median: number; min: number; max: number };
  anonMb: number;
  fileMb: number;
  latencyP50Us: number;
  /** Median ms from spawn to exit of a CLI command (builds of nearcast only). */
  cliMs?: number;
}

function machine() {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model ?? "unknown",
    cores: cpu.length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    kernel: `${process.platform} ${release()}`,
    arch: process.arch,
    bun: Bun.version,
    date: new Date().toISOString().slice(0, 10),
  };
}

function row(r: SubjectResult): string {
  return (
    `${r.name.padEnd(40)} ${`${r.startMs.median.toFixed(1)} ms`.padStart(12)} ${`(${r.startMs.min.toFixed(0)}-${r.startMs.max.toFixed(0)})`.padStart(14)} ` +
    `${`${r.rssMb.median.toFixed(1)} MB`.padStart(11)} ${`(${r.rssMb.min.toFixed(1)}-${r.rssMb.max.toFixed(1)})`.padStart(12)} ` +
    `${r.anonMb.toFixed(1).padStart(6)} ${r.fileMb.toFixed(1).padStart(6)} ${`${r.latencyP50Us.toFixed(0)} us`.padStart(11)}`
  );
}

export interface ReportOptions {
  runs: number;
  bigRuns: number;
  idleMs: number;
  requests: number;
  json: boolean;
  targets: { startMs: number; rssMb: number; bigStartMs: number; cliMs: number };
  /** Against a --baseline build. */
  limits: { rssMb: number; cliMs: number };
}

/** The table, the ratios and the verdicts (or one JSON document with --json). */
export function report(results: SubjectResult[], cliBaselineMs: number, big: SubjectResult[], o: ReportOptions): void {
  const { runs: RUNS, bigRuns: BIG_RUNS, idleMs: IDLE_MS, requests: REQUESTS, json: JSON_OUT } = o;
  const [TARGET_START_MS, TARGET_RSS_MB, TARGET_BIG_START_MS, TARGET_CLI_MS] = [o.targets.startMs, o.targets.rssMb, o.targets.bigStartMs, o.targets.cliMs];
  const [LIMIT_RSS_MB, LIMIT_CLI_MS] = [o.limits.rssMb, o.limits.cliMs];
  const [hello, floor, ours] = results as [SubjectResult, SubjectResult, SubjectResult];
  const bigOurs = big[1];
  const ratios = {
    startVsHello: ours.startMs.median / hello.startMs.median,
    rssVsHello: ours.rssMb.median / hello.rssMb.median,
    startVsFloor: ours.startMs.median / floor.startMs.median,
    rssVsFloor: ours.rssMb.median / floor.rssMb.median,
    cliVsBaseline: ours.cliMs! / cliBaselineMs,
  };
  const targets = {
    startMs: TARGET_START_MS,
    rssMb: TARGET_RSS_MB,
    bigStartMs: TARGET_BIG_START_MS,
    cliMs: TARGET_CLI_MS,
    startMet: ours.startMs.median <= TARGET_START_MS,
    rssMet: ours.rssMb.median <= TARGET_RSS_MB,
    bigStartMet: bigOurs ? bigOurs.startMs.median <= TARGET_BIG_START_MS : null,
    cliMet: ours.cliMs! <= TARGET_CLI_MS,
  };
  if (JSON_OUT) {
    console.log(JSON.stringify({ bench: "startup", machine: machine(), loadavg: readFileSync("/proc/loadavg", "utf8").trim(), compileFlags: COMPILE_FLAGS, runs: RUNS, idleMs: IDLE_MS, results, big, cliBaselineMs, ratios, targets }, null, 2));
    return;
  }
  const m = machine();
  console.log(`Start-up benchmark: ${RUNS} runs each (interleaved; ${BIG_RUNS} on the big database), idle ${IDLE_MS} ms before reading RSS, ${REQUESTS} sequential health requests after`);
  console.log(`${m.date}, ${m.cpu} x${m.cores}, ${m.memoryGb} GB, ${m.kernel}, Bun ${m.bun}, compiled with: bun build ${COMPILE_FLAGS.join(" ")}; load average at the end ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}\n`);
  console.log(`${"subject".padEnd(40)} ${"start median".padStart(12)} ${"(min-max)".padStart(14)} ${"RSS median".padStart(11)} ${"(min-max)".padStart(12)} ${"anon".padStart(6)} ${"file".padStart(6)} ${"health p50".padStart(11)}`);
  for (const r of [...results, ...big]) console.log(row(r));
  console.log("");
  console.log(`nearcast / bun hello-world:       start x${ratios.startVsHello.toFixed(2)}, RSS x${ratios.rssVsHello.toFixed(2)}`);
  console.log(`nearcast / bun + sqlite + crypto: start x${ratios.startVsFloor.toFixed(2)}, RSS x${ratios.rssVsFloor.toFixed(2)}`);
  for (const r of results.slice(3)) {
    console.log(`${r.name} / nearcast: start x${(r.startMs.median / ours.startMs.median).toFixed(2)}, RSS x${(r.rssMb.median / ours.rssMb.median).toFixed(2)}, health p50 x${(r.latencyP50Us / ours.latencyP50Us).toFixed(2)}`);
  }
  if (bigOurs) console.log(`big database, nearcast / bun + sqlite + crypto: start x${(bigOurs.startMs.median / big[0]!.startMs.median).toFixed(2)}`);
  console.log(`CLI read (business-types list --json), bun + sqlite print (baseline): ${cliBaselineMs.toFixed(1)} ms`);
  for (const r of results.filter((x) => x.cliMs !== undefined)) console.log(`CLI read (business-types list --json), ${r.name}: ${r.cliMs!.toFixed(1)} ms (x${(r.cliMs! / cliBaselineMs).toFixed(2)} the baseline)`);
  const base = results.find((r) => r.name.startsWith("baseline: "));
  if (base) {
    const rss = ours.rssMb.median - base.rssMb.median;
    const cli = ours.cliMs! - base.cliMs!;
    const sign = (x: number) => (x >= 0 ? "+" : "");
    console.log(
      `nearcast against the baseline: idle RSS ${sign(rss)}${rss.toFixed(1)} MB (limit +${LIMIT_RSS_MB} MB) ${rss <= LIMIT_RSS_MB ? "met" : "MISSED"}; ` +
        `CLI command start ${sign(cli)}${cli.toFixed(1)} ms (limit +${LIMIT_CLI_MS} ms) ${cli <= LIMIT_CLI_MS ? "met" : "MISSED"}`,
    );
  }
  const ok = (b: boolean | null) => (b === null ? "not measured" : b ? "met" : "MISSED");
  console.log(
    `targets: start <= ${TARGET_START_MS} ms ${ok(targets.startMet)}; idle RSS <= ${TARGET_RSS_MB} MB ${ok(targets.rssMet)}; ` +
      `start on the big database <= ${TARGET_BIG_START_MS} ms ${ok(targets.bigStartMet)}; CLI read <= ${TARGET_CLI_MS} ms ${ok(targets.cliMet)}`,
  );
}
