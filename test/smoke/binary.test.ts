// The BUILT executable, the way a user runs it: a copy of dist/nearcast in an empty folder (no node_modules, no
// sources), that folder as the working directory. Run after `npx bun scripts/build.ts`:
//   npx bun test test/smoke
// NEARCAST_TEST_BINARY=/path/to/nearcast tests another build instead of dist/nearcast.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { BINARY, httpClient, type RunningBinary, startBinary } from "../helpers/server.ts";

const SOURCE = process.env.NEARCAST_TEST_BINARY ?? BINARY;
const OWNER = { firstName: "Ada", lastName: "Baker", email: "smoke-owner@example.com", password: "correct horse" };
const ADMIN = { email: "smoke-admin@example.com", password: "battery staple" };

let home: string; // the empty folder: working directory of every process
let bin: string; // the copy of the executable inside it
let dataDir: string;
let server: RunningBinary | undefined;

/** Runs the executable to completion in the empty folder with only PATH (and `env`) set. */
function run(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawnSync([bin, ...args], { cwd: home, env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

async function start(): Promise<RunningBinary> {
  server = await startBinary({}, dataDir, { binary: bin, cwd: home });
  return server;
}

async function stop(): Promise<void> {
  await server?.stop();
  server = undefined;
}

async function login(url: string, email: string, password: string) {
  const call = httpClient(url);
  const res = await call("POST", "/api/auth/Login", { email, password });
  expect(res.status).toBe(200);
  expect(typeof res.body.token).toBe("string");
  return { call, token: res.body.token as string, user: res.body.user };
}

beforeAll(() => {
  if (!existsSync(SOURCE)) throw new Error(`${SOURCE} is missing: run \`npx bun scripts/build.ts\` first`);
  home = mkdtempSync(join(tmpdir(), "nearcast-smoke-"));
  bin = join(home, "nearcast");
  copyFileSync(SOURCE, bin); // a copy: a rebuild of dist/ while this runs cannot pull it away
  chmodSync(bin, 0o755);
  dataDir = join(home, "data");
  mkdirSync(dataDir);
});

afterAll(async () => {
  await stop();
  rmSync(home, { recursive: true, force: true });
});

describe("serving from an empty folder", () => {
  test("the folder holds nothing but the executable and the data dir", () => {
    expect(readdirSync(home).sort()).toEqual(["data", "nearcast"]);
  });

  test("GET /api/health, --version and the startup line show one version: package.json's and the commit built", async () => {
    const { url } = await start();
    const res = await fetch(`${url}/api/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = (await res.json()) as { status: string; version: string };
    expect(body.status).toBe("ok");
    // Built from a git checkout: the short commit, ".dirty" when it had uncommitted changes.
    expect(body.version).toMatch(new RegExp(`^${pkg.version.replaceAll(".", "\\.")}\\+[0-9a-f]{10}(\\.dirty)?$`));
    expect(run(["--version"]).out.trim()).toBe(body.version);
    expect(server!.log()).toContain(`Nearcast ${body.version} listening on`);
  });

  test("GET / is the HTML shell; its hashed JS and CSS answer 200 with their type, gzip when asked", async () => {
    const res = await fetch(`${server!.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toContain('<div id="root">');
    const js = /src="(\/assets\/app-[A-Za-z0-9]+\.js)"/.exec(html)?.[1];
    const css = /href="(\/assets\/app-[A-Za-z0-9]+\.css)"/.exec(html)?.[1];
    expect(js).toBeDefined();
    expect(css).toBeDefined();
    for (const [path, type] of [
      [js!, "text/javascript; charset=utf-8"],
      [css!, "text/css; charset=utf-8"],
    ] as const) {
      const plain = await fetch(`${server!.url}${path}`, { headers: { "accept-encoding": "identity" } });
      expect(plain.status).toBe(200);
      expect(plain.headers.get("content-type")).toBe(type);
      expect(plain.headers.get("content-encoding")).toBeNull();
      expect(plain.headers.get("cache-control")).toContain("immutable");
      const body = new Uint8Array(await plain.arrayBuffer());
      expect(body.length).toBeGreaterThan(1000);

      const zipped = await fetch(`${server!.url}${path}`, { headers: { "accept-encoding": "gzip" }, decompress: false });
      expect(zipped.status).toBe(200);
      expect(zipped.headers.get("content-type")).toBe(type);
      expect(zipped.headers.get("content-encoding")).toBe("gzip");
      const raw = new Uint8Array(await zipped.arrayBuffer());
      expect(raw.length).toBeLessThan(body.length);
      expect(Bun.gunzipSync(raw)).toEqual(body);
    }
  });

  test("a client-side route (/business-types) also gets the shell", async () => {
    const shell = await (await fetch(`${server!.url}/`)).text();
    const res = await fetch(`${server!.url}/business-types`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toBe(shell);
  });

  test("register and log in through the HTTP API", async () => {
    const call = httpClient(server!.url);
    const reg = await call("POST", "/api/auth/Register", OWNER);
    expect(reg.status).toBe(201);
    const { call: authed, token, user } = await login(server!.url, OWNER.email, OWNER.password);
    expect(user.email).toBe(OWNER.email);
    const me = await authed("GET", "/api/auth/GetCurrentUser", undefined, token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: OWNER.email, role: "owner" });
  });

  test("the data dir holds nearcast.db in WAL mode", () => {
    expect(readdirSync(dataDir)).toContain("nearcast.db");
    const db = new Database(join(dataDir, "nearcast.db"), { readonly: true });
    try {
      expect((db.query("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode).toBe("wal");
    } finally {
      db.close();
    }
  });

  test("WAL checkpoints run on the executable's background thread (its worker entry point is embedded)", async () => {
    // Registering above wrote to the WAL; the thread checkpoints every 200 ms.
    await Bun.sleep(400);
    expect(server!.log()).not.toContain("WAL checkpoints");
    const threads = readdirSync(`/proc/${server!.proc.pid}/task`).map((t) => {
      try {
        return readFileSync(`/proc/${server!.proc.pid}/task/${t}/comm`, "utf8").trim();
      } catch {
        return "";
      }
    });
    // Bun names a Worker's thread "Worker"; the checkpointer is the server's only one.
    expect(threads).toContain("Worker");
  });

  test("`users create --admin` from the CLI, then that user logs in over HTTP as admin", async () => {
    const created = run(["users", "create", "--email", ADMIN.email, "--password", ADMIN.password, "--admin", "--data-dir", dataDir]);
    expect(created.err).toBe("");
    expect(created.code).toBe(0);
    const { call, token } = await login(server!.url, ADMIN.email, ADMIN.password);
    const me = await call("GET", "/api/auth/GetCurrentUser", undefined, token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: ADMIN.email, role: "admin" });
  });

  test("a restart on the same data dir keeps the accounts", async () => {
    await stop();
    const { url } = await start();
    const { call, token } = await login(url, OWNER.email, OWNER.password);
    expect((await call("GET", "/api/auth/GetCurrentUser", undefined, token)).body).toMatchObject({ email: OWNER.email, role: "owner" });
    expect((await login(url, ADMIN.email, ADMIN.password)).user).toMatchObject({ role: "admin" });
  });
});

describe("command line", () => {
  const HELP = [
    [],
    ["serve"],
    ["users"],
    ["users", "create"],
    ["users", "list"],
    ["business-types"],
    ["business-types", "list"],
    ["business-types", "add"],
    ["business-types", "update"],
    ["business-types", "remove"],
  ];
  test.each(HELP.map((args) => [args.join(" ") || "(root)", args] as const))("nearcast %s --help prints Examples", (_name, args) => {
    const r = run([...args, "--help"]);
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
    expect(r.out).toContain("Usage: nearcast");
    expect(r.out).toContain("Examples:\n  $ nearcast");
  });

  test("every command the root help lists has --help with Examples", () => {
    const root = run(["--help"]).out;
    const commands = [...root.slice(root.indexOf("Commands:")).matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!).filter((c) => c !== "help");
    expect(commands).toEqual(expect.arrayContaining(["serve", "users", "business-types"]));
    for (const command of commands) expect(run([command, "--help"]).out, command).toContain("Examples:");
  });

  const BAD: { name: string; args: string[]; env: Record<string, string>; setting: string }[] = [
    { name: "NEARCAST_PORT=abc", args: [], env: { NEARCAST_PORT: "abc" }, setting: "NEARCAST_PORT" },
    { name: "--port 99999", args: ["--port", "99999"], env: {}, setting: "--port" },
    { name: "NEARCAST_PUBLIC_URL=ftp://x", args: [], env: { NEARCAST_PUBLIC_URL: "ftp://x" }, setting: "NEARCAST_PUBLIC_URL" },
  ];
  test.each(BAD.map((b) => [b.name, b] as const))("serve with %s exits non-zero with one stderr line naming it", (_name, bad) => {
    const r = run(["serve", "--host", "127.0.0.1", "--data-dir", join(home, "never"), ...bad.args], bad.env);
    expect(r.code).not.toBe(0);
    const lines = r.err.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(bad.setting);
    expect(r.err).not.toMatch(/^\s+at /m); // no stack trace
    expect(r.err).not.toContain("Bun v"); // no runtime crash banner
    expect(r.out).toBe("");
  });
});
