// Records the profile for Bun's profile-guided bytecode layout (`bun build --bytecode-order`, see bench/README.md):
// compiles cli/main.ts with scripts/build.ts COMPILE_FLAGS into a temp dir, runs `nearcast serve` on an existing
// database with BUN_BYTECODE_ORDER_OUT, asks it what a first visitor asks (/api/health, the HTML shell, the JS and
// CSS bundle), stops it with SIGTERM, and writes the profile to bench/profiles/serve.order, which scripts/build.ts
// passes to every later build. Re-record after large changes to what the server loads at start; a stale profile
// still works (functions are matched by a hash of their syntax), it only covers less.
//
//   npx bun scripts/build.ts --web && npx bun bench/record-bytecode-order.ts && npx bun scripts/build.ts
//
// Only loopback traffic; bounded (10 s to start, 10 s to stop).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BYTECODE_ORDER, compileExecutable } from "../scripts/build.ts";

const root = join(import.meta.dir, "..");
if (!existsSync(join(root, "build", "web", "manifest.ts"))) {
  throw new Error("build/web/manifest.ts is missing: run `npx bun scripts/build.ts --web` first");
}

const work = mkdtempSync(join(tmpdir(), "nearcast-order-"));
try {
  const bin = join(work, "nearcast");
  compileExecutable(join(root, "cli", "main.ts"), bin, { quiet: true });
  const cwd = join(work, "cwd");
  const dataDir = join(work, "data");
  mkdirSync(cwd);
  const env = { PATH: process.env.PATH ?? "" };
  const prep = Bun.spawnSync([bin, "users", "create", "--email", "order@example.com", "--password", "order-password", "--data-dir", dataDir], {
    cwd,
    env,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (prep.exitCode !== 0) throw new Error(`preparing the database failed: ${prep.stderr.toString()}`);

  const profile = join(work, "serve.order");
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  const proc = Bun.spawn([bin, "serve", "--port", String(port), "--host", "127.0.0.1", "--data-dir", dataDir], {
    cwd,
    env: { ...env, BUN_BYTECODE_ORDER_OUT: profile },
    stdout: "ignore",
    stderr: "pipe",
  });
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nearcast serve exited: ${await new Response(proc.stderr).text()}`);
    if (performance.now() - started > 10_000) throw new Error("nearcast serve did not answer /api/health within 10 s");
    const res = await fetch(`${base}/api/health`).catch(() => undefined);
    if (res?.status === 200) break;
    await Bun.sleep(5);
  }
  const shell = await (await fetch(`${base}/`, { headers: { "accept-encoding": "gzip" } })).text();
  for (const [, asset] of shell.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)) {
    await (await fetch(`${base}${asset}`, { headers: { "accept-encoding": "gzip" } })).arrayBuffer();
  }
  await (await fetch(`${base}/api/health`)).text();
  proc.kill("SIGTERM");
  const stopped = await Promise.race([proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
  if (!stopped) {
    proc.kill("SIGKILL");
    throw new Error("nearcast serve did not stop within 10 s of SIGTERM");
  }
  if (!existsSync(profile)) throw new Error("no profile was written (is BUN_BYTECODE_ORDER_OUT supported by this Bun?)");
  mkdirSync(join(BYTECODE_ORDER, ".."), { recursive: true });
  copyFileSync(profile, BYTECODE_ORDER);
  console.log(`wrote ${BYTECODE_ORDER} (${(statSync(BYTECODE_ORDER).size / 1024).toFixed(0)} KB); rebuild with \`npx bun scripts/build.ts\``);
} finally {
  rmSync(work, { recursive: true, force: true });
}
