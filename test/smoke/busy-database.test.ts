// Issue 21 item 5 with the BUILT executable: a database another process holds locked is reported as busy ("another
// process is writing; try again"), by serve and by every other command, never as damaged; a damaged one still is.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { privateBinary } from "../helpers/server.ts";

let work: string;
let bin: string;
let dataDir: string;

function run(args: string[]) {
  const p = Bun.spawnSync([bin, ...args, "--data-dir", dataDir], { cwd: work, env: { PATH: process.env.PATH ?? "", NEARCAST_ENV_FILE: join(work, "none.env") }, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

/** Another process holding the database locked (exclusive locking mode, after a write) until it is killed. */
async function holdLocked(path: string) {
  const script = `
    const { Database } = require("bun:sqlite");
    const db = new Database(process.argv[1]);
    db.query("PRAGMA journal_mode = DELETE").get();
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    db.exec("CREATE TABLE IF NOT EXISTS held_by_test (x)");
    db.exec("INSERT INTO held_by_test VALUES (1)");
    console.log("held");
    setInterval(() => db.filename, 1000); // keeps the connection referenced (a collected one would let go)
  `;
  const proc = Bun.spawn([process.execPath, "-e", script, path], { stdout: "pipe", stderr: "inherit" });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value)).toBe("held\n");
  return proc;
}

beforeAll(() => {
  ({ work, bin, dataDir } = privateBinary("nearcast-busy-"));
  const r = run(["migrate"]);
  expect(r.code).toBe(0);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

test("locked by another process: serve and a command each say busy (exit 1), never damaged; free again, both work", async () => {
  const holder = await holdLocked(join(dataDir, "nearcast.db"));
  try {
    const serve = run(["serve", "--port", "0", "--host", "127.0.0.1"]);
    expect(serve.code).toBe(1);
    expect(serve.err).toBe(`nearcast: ${join(dataDir, "nearcast.db")} is busy: another process is writing; try again\n`);
    const list = run(["users", "list"]);
    expect(list.code).toBe(1);
    expect(list.err).toBe(`nearcast: ${join(dataDir, "nearcast.db")} is busy: another process is writing; try again\n`);
  } finally {
    holder.kill();
    await holder.exited;
  }
  expect(run(["users", "list"]).code).toBe(0);
}, 60_000);

test("a damaged database is still called damaged, pointing at restore", () => {
  const path = join(dataDir, "nearcast.db");
  const bytes = readFileSync(path);
  bytes.fill(0x5a, 4096 * 2, 4096 * 5);
  writeFileSync(path, bytes);
  const serve = run(["serve", "--port", "0", "--host", "127.0.0.1"]);
  expect(serve.code).toBe(1);
  expect(serve.err).toMatch(/^nearcast: .*nearcast\.db is damaged \(quick_check: .+\): restore a backup with `nearcast restore FILE --data-dir .+`\n$/);
}, 30_000);
