// Records which functions of the bundle an idle `serve` runs, for the bytecode layout of the executable
// (`bun build --bytecode-order`, scripts/build.ts): Bun puts their bytecode together at the front of the embedded
// bundle, so a start reads those pages and not the whole bundle (issue 26 item 2: idle RSS -2.5 MB, bench/README.md
// "Session 14"). Run it again when serve's start changes a lot; an older profile still applies (a function it does
// not know is laid out with the cold ones), and without the file the build simply has no layout.
//   bun scripts/build.ts && bun scripts/record-bytecode-order.ts      (then build again)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
/** The profile scripts/build.ts lays the bytecode out by. */
export const BYTECODE_ORDER = join(root, "scripts", "bytecode-order-serve.txt");
/** Long enough for the background work (100 ms after listening) and a few rounds of the dispatcher. */
const IDLE_MS = 2000;

async function record(binary: string): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "nearcast-bytecode-order-"));
  try {
    const dataDir = join(work, "data");
    const env = { PATH: process.env.PATH ?? "" };
    // The database an installed server has: migrated, with an account (what bench/startup.ts measures).
    const prep = Bun.spawnSync([binary, "users", "create", "--email", "order@example.com", "--password", "order-password", "--data-dir", dataDir], { env });
    if (prep.exitCode !== 0) throw new Error(`preparing the database failed: ${prep.stderr.toString()}`);
    const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = probe.port;
    probe.stop(true);
    const proc = Bun.spawn([binary, "serve", "--port", String(port), "--host", "127.0.0.1", "--data-dir", dataDir], {
      cwd: work,
      env: { ...env, BUN_BYTECODE_ORDER_OUT: BYTECODE_ORDER },
      stdout: "ignore",
      stderr: "ignore",
    });
    const deadline = Date.now() + 10_000;
    while ((await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.status !== 200) {
      if (Date.now() > deadline || proc.exitCode !== null) throw new Error("serve did not answer /api/health within 10 s");
      await Bun.sleep(5);
    }
    await Bun.sleep(IDLE_MS);
    proc.kill("SIGTERM"); // the profile is written as the process exits
    await proc.exited;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  await record(process.argv[2] ?? join(root, "dist", "nearcast"));
  console.log(`wrote ${BYTECODE_ORDER}`);
}
