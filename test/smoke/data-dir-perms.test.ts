// Issue 10 item 9, with the BUILT executable: the data dir is its owner's alone. A CLI command on an empty path, then
// `serve` with an upload, leave every folder 0700 and every file 0600 (database, WAL, SHM, lock, uploads), whatever the
// umask of the shell that started them; an install whose files an older version left 0644 is tightened on the next
// start; and a service user (here `nobody`, as the operations issue's systemd unit would run it) owns and uses its
// data dir as before.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { png } from "../helpers/images.ts";
import { BINARY, httpClient, type RunningBinary, startBinary } from "../helpers/server.ts";

const SOURCE = process.env.NEARCAST_TEST_BINARY ?? BINARY;
const ADMIN = { email: "perms-admin@example.com", password: "battery staple" };

let home: string;
let bin: string;

/** Every entry under `dir` (itself included) with its permission bits, as "path 700". */
function modes(dir: string): string[] {
  const out = [`. ${(statSync(dir).mode & 0o777).toString(8)}`];
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
    out.push(`${name} ${(statSync(join(dir, name)).mode & 0o777).toString(8)}`);
  }
  return out;
}

/** Each entry should be 700 (a folder) or 600 (a file). */
function expected(dir: string): string[] {
  const out = [". 700"];
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
    out.push(`${name} ${statSync(join(dir, name)).isDirectory() ? "700" : "600"}`);
  }
  return out;
}

function run(binary: string, args: string[]) {
  const p = Bun.spawnSync([binary, ...args], { cwd: home, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

async function uploadAndCreate(server: RunningBinary, email: string, password: string): Promise<void> {
  const call = httpClient(server.url);
  const login = await call("POST", "/api/auth/Login", { email, password });
  expect(login.status).toBe(200);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec((await fetch(`${server.url}/api/health`)).headers.get("set-cookie") ?? "")![1]!;
  const form = new FormData();
  form.append("file", new Blob([png(16, 16) as BlobPart], { type: "image/png" }), "logo.png");
  const upload = await fetch(`${server.url}/api/business/UploadLogo`, {
    method: "POST",
    headers: { authorization: `Bearer ${login.body.token}`, cookie: `XSRF-TOKEN=${xsrf}`, "x-xsrf-token": xsrf },
    body: form,
  });
  expect(upload.status).toBe(201);
  const { filePath } = (await upload.json()) as { filePath: string };
  expect((await fetch(`${server.url}${filePath}`)).status).toBe(200);
}

beforeAll(() => {
  if (!existsSync(SOURCE)) throw new Error(`${SOURCE} is missing: run \`npx bun scripts/build.ts\` first`);
  home = mkdtempSync(join(tmpdir(), "nearcast-perms-"));
  // Readable by others on purpose: the service user must reach the executable.
  chmodSync(home, 0o755);
  bin = join(home, "nearcast");
  copyFileSync(SOURCE, bin);
  chmodSync(bin, 0o755);
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

describe("a data dir only its owner can read", () => {
  let dataDir: string;
  let server: RunningBinary | undefined;

  afterAll(async () => {
    await server?.stop();
  });

  test("a CLI command on an empty path creates the folder 0700 and the database 0600", () => {
    dataDir = join(home, "fresh", "data");
    const res = run(bin, ["users", "create", "--email", ADMIN.email, "--password", ADMIN.password, "--admin", "--data-dir", dataDir]);
    expect(res).toMatchObject({ code: 0, err: "" });
    expect(modes(dataDir)).toEqual(expected(dataDir));
    expect(readdirSync(dataDir)).toContain("nearcast.db");
  });

  test("serve and an upload: the database, its WAL and SHM, the lock and the uploads are 0600 in 0700 folders", async () => {
    server = await startBinary({}, dataDir, { binary: bin, cwd: home });
    await uploadAndCreate(server, ADMIN.email, ADMIN.password);
    const names = readdirSync(dataDir, { recursive: true, encoding: "utf8" });
    expect(names).toEqual(expect.arrayContaining(["nearcast.db", "nearcast.db-wal", "nearcast.db-shm", "uploads"]));
    expect(names.some((n) => /^uploads\/[0-9a-f]{32}\.png$/.test(n))).toBe(true);
    expect(modes(dataDir)).toEqual(expected(dataDir));
    await server.stop();
    server = undefined;
    expect(modes(dataDir)).toEqual(expected(dataDir));
  });

  test("an install an older version left 0755/0644 is tightened on the next start, CLI or serve", async () => {
    const widen = () => {
      chmodSync(dataDir, 0o755);
      for (const name of readdirSync(dataDir, { recursive: true, encoding: "utf8" })) {
        const path = join(dataDir, name);
        chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
      }
    };
    widen();
    expect(modes(dataDir)).not.toEqual(expected(dataDir));
    expect(run(bin, ["users", "list", "--data-dir", dataDir]).code).toBe(0);
    expect(modes(dataDir)).toEqual(expected(dataDir));

    widen();
    server = await startBinary({}, dataDir, { binary: bin, cwd: home });
    expect(modes(dataDir)).toEqual(expected(dataDir));
    await server.stop();
    server = undefined;
  });
});

describe("a service user", () => {
  // As root, the user `nobody`; as anyone else, that user is the service user already.
  const IS_ROOT = process.getuid?.() === 0;
  const USER = IS_ROOT ? 65534 : process.getuid!();
  let dataDir: string;
  let asNobody: string;
  let server: RunningBinary | undefined;

  afterAll(async () => {
    await server?.stop();
  });

  test("running as its own user (nobody, when the tests run as root) owns and uses its 0700 data dir as before", async () => {
    // The operations issue's unit: a system user owns /var/lib/nearcast and runs the executable; here a folder of
    // nobody's, and the executable started through setpriv.
    const parent = join(home, "service");
    mkdirSync(parent, { mode: 0o755 });
    chownSync(parent, USER, IS_ROOT ? USER : process.getgid!());
    dataDir = join(parent, "data");
    asNobody = join(home, "as-nobody.sh");
    const su = IS_ROOT ? `setpriv --reuid=${USER} --regid=${USER} --clear-groups ` : "";
    writeFileSync(asNobody, `#!/bin/sh\nexec ${su}${bin} "$@"\n`, { mode: 0o755 });

    const created = run(asNobody, ["users", "create", "--email", ADMIN.email, "--password", ADMIN.password, "--admin", "--data-dir", dataDir]);
    expect(created).toMatchObject({ code: 0, err: "" });
    server = await startBinary({}, dataDir, { binary: asNobody, cwd: home });
    await uploadAndCreate(server, ADMIN.email, ADMIN.password);
    for (const name of ["", ...readdirSync(dataDir, { recursive: true, encoding: "utf8" })]) {
      expect({ name, uid: statSync(join(dataDir, name)).uid }).toEqual({ name, uid: USER });
    }
    expect(modes(dataDir)).toEqual(expected(dataDir));
    await server.stop();
    server = undefined;
    // The CLI next to the stopped server, as the same user: still works on its own data.
    expect(run(asNobody, ["users", "list", "--data-dir", dataDir]).code).toBe(0);
  });
});
