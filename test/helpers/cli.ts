// The CLI as a user runs it, for the cli-* integration tests: `bun cli/main.ts ...` as a real process on a real data
// directory (a temporary one per world), and the database of that directory opened the way the server opens it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { type AppContext, createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";

const MAIN = join(import.meta.dir, "..", "..", "cli", "main.ts");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export type Env = Record<string, string | undefined>;

/** The test's own environment without colours or a data directory of its own (each test names its --data-dir).
 * Quiet hours and the daily cap are off: a CLI that sends runs on the real clock, and a test must not depend on the
 * hour it runs at (the tests of quiet hours use the injected clock). */
export const cliEnv = (extra: Env = {}): Env => ({
  ...process.env,
  NO_COLOR: "1",
  NEARCAST_DATA_DIR: undefined,
  NEARCAST_QUIET_HOURS: "off",
  NEARCAST_MAX_PER_DAY: "0",
  // Owners who register send at once; the tests of approval set NEARCAST_OWNER_SIGNUP=approval themselves.
  NEARCAST_OWNER_SIGNUP: "open",
  ...extra,
});

/** cliEnv without the machine's Twilio account or senders: commands send in the sandbox (messages recorded, not sent). */
export const sandboxEnv = (extra: Env = {}): Env =>
  cliEnv({ TWILIO_ACCOUNT_SID: undefined, TWILIO_AUTH_TOKEN: undefined, TWILIO_FROM: undefined, TWILIO_WHATSAPP_FROM: undefined, TWILIO_MESSAGING_SERVICE_SID: undefined, ...extra });

/** The command line for `nearcast args` (with --data-dir when a directory is given). */
export const nearcastCommand = (args: string[], dataDir?: string): string[] => [
  process.execPath,
  MAIN,
  ...args,
  ...(dataDir ? ["--data-dir", dataDir] : []),
];

/** Runs `nearcast args` to its end. */
export function nearcast(args: string[], dataDir?: string, env: Env = cliEnv()): Run {
  const p = Bun.spawnSync({ cmd: nearcastCommand(args, dataDir), env, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode ?? -1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

/** The JSON a successful run printed (a failed run fails the test with its stderr). */
export function json(run: Run): any {
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/**
 * Temporary data directories named after the test file, removed by `removeAll()` (in an afterAll/afterEach).
 * make(): one with a fresh database, as after a first `nearcast serve` or `nearcast migrate` (every command but
 * those refuses a folder without one); makeEmpty(): one with nothing in it.
 */
export function tempDataDirs(prefix: string) {
  const dirs: string[] = [];
  const makeEmpty = (): string => {
    const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    dirs.push(dir);
    return dir;
  };
  return {
    make(): string {
      const dir = makeEmpty();
      createContext(loadConfig({}, { dataDir: dir }), { logger: new MemoryLogger() }).close();
      return dir;
    },
    makeEmpty,
    get count(): number {
      return dirs.length;
    },
    removeAll(): void {
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}

/** Opens the data directory's database (as the server would), lets fn set it up or read it, closes it. */
export function withDataDir<T>(dataDir: string, fn: (ctx: AppContext) => T): T {
  const ctx = createContext(loadConfig({}, { dataDir }), { logger: new MemoryLogger() });
  try {
    return fn(ctx);
  } finally {
    ctx.close();
  }
}

/** Runs `nearcast args` without blocking this process, so a server of the test's own (a fake Twilio, a web site the
 * command fetches) can answer it. */
export async function nearcastAsync(args: string[], dataDir?: string, env: Env = cliEnv()): Promise<Run> {
  const p = Bun.spawn({ cmd: nearcastCommand(args, dataDir), env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}
