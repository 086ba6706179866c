// `nearcast users reset-password` as the admin runs it on the server: a real process on a real data directory, then
// the API on the same database to prove that the printed link, or the password set, works.
// Not the scenario runner: it runs the CLI as a real process, then proves the link or password over the API.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { type AppContext, createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { passwordResets } from "../../src/db/schema.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { RESET_LINK_NEEDS_PUBLIC_URL } from "../../src/services/public-links.ts";
import { apiClient } from "../helpers/api.ts";
import { type Run, nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";

// Each run is a process, and argon2 is deliberately slow.
setDefaultTimeout(60_000);

const dirs = tempDataDirs("nearcast-cli-users-reset");
afterAll(dirs.removeAll);

const BAD_RESET = "Invalid or expired reset token. Please request a new password reset.";
const reset = (dir: string, ...args: string[]) => nearcast(["users", "reset-password", ...args], dir);

/** A user-facing failure: the exit code, nothing on stdout, exactly one line on stderr, no stack trace. */
function expectOneLineError(run: Run, code: number, line: string): void {
  expect(run.code).toBe(code);
  expect(run.stdout).toBe("");
  expect(run.stderr).toBe(`${line}\n`);
}

/** The API on the data directory's database (as `serve` would open it), for the duration of `fn`. */
async function withApi<T>(dir: string, fn: (api: ReturnType<typeof apiClient>, ctx: AppContext) => Promise<T>): Promise<T> {
  const ctx = createContext(loadConfig({}, { dataDir: dir }), { logger: new MemoryLogger() });
  try {
    return await fn(apiClient(ctx), ctx);
  } finally {
    ctx.close();
  }
}

const login = (api: ReturnType<typeof apiClient>, password: string) => api.post("/api/auth/Login", { email: "ana@shop.com", password });

let dir: string;
beforeAll(() => {
  dir = dirs.make();
  const made = nearcast(["users", "create", "--email", "ana@shop.com", "--password", "old-secret"], dir);
  expect(made.code).toBe(0);
});

describe("users reset-password", () => {
  test("without a public URL: refused with exit 2 and one line saying to set it; no link is made (issue 21)", () => {
    const run = reset(dir, "--email", "Ana@Shop.com");
    expectOneLineError(run, 2, `nearcast: ${RESET_LINK_NEEDS_PUBLIC_URL}`);
    expect(RESET_LINK_NEEDS_PUBLIC_URL).toContain("nearcast settings set publicUrl https://...");
    // The same for an address with no account: nothing says whether it has one.
    expectOneLineError(reset(dir, "--email", "ghost@shop.com"), 2, `nearcast: ${RESET_LINK_NEEDS_PUBLIC_URL}`);
    expect(withDataDir(dir, (ctx) => ctx.db.select().from(passwordResets).all())).toEqual([]);
  });

  test("the link is built on the saved public URL; a newer link replaces the older one", async () => {
    withDataDir(dir, (ctx) => ctx.services.settings.update(OPERATOR, { publicUrl: "https://shop.example.com" }));
    const first = reset(dir, "--email", "ana@shop.com").stdout.split("\n")[1]!;
    const run = reset(dir, "--email", "Ana@Shop.com");
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe("One-time reset link for ana@shop.com, valid 30 minutes (it works once; older links stop working):");
    expect(lines[1]).toMatch(/^https:\/\/shop\.example\.com\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const token = new URL(lines[1]!).searchParams.get("token")!;
    await withApi(dir, async (api) => {
      const old = await api.post("/api/auth/ResetPassword", { token: new URL(first).searchParams.get("token"), newPassword: "nope-nope" });
      expect(old.status).toBe(400);
      expect((await api.post("/api/auth/ResetPassword", { token, newPassword: "via-public-url" })).status).toBe(200);
      expect((await login(api, "via-public-url")).status).toBe(200);
      const again = await api.post("/api/auth/ResetPassword", { token, newPassword: "once-more" });
      expect(again.status).toBe(400);
      expect(again.body.error).toBe(BAD_RESET);
    });
  });

  test("--password sets the password and signs the account out everywhere", async () => {
    const session = await withApi(dir, async (api) => {
      const res = await login(api, "via-public-url");
      expect(res.status).toBe(200);
      return res.body.token as string;
    });
    const run = reset(dir, "--email", "ana@shop.com", "--password", "set-by-admin");
    expect(run).toMatchObject({ code: 0, stderr: "", stdout: "Password set for ana@shop.com; every session of the account was signed out.\n" });
    await withApi(dir, async (api) => {
      expect((await api.get("/api/auth/GetCurrentUser", { token: session })).status).toBe(401);
      expect((await login(api, "via-public-url")).status).toBe(401);
      expect((await login(api, "set-by-admin")).status).toBe(200);
    });
  });

  test("an unknown email: exit 2, one line", () => {
    expectOneLineError(reset(dir, "--email", "ghost@shop.com"), 2, "nearcast: no account with email ghost@shop.com");
    expectOneLineError(reset(dir, "--email", "ghost@shop.com", "--password", "whatever1"), 2, "nearcast: no account with email ghost@shop.com");
  });

  test("bad input: exit 2, one line, nothing changed", async () => {
    expectOneLineError(reset(dir, "--email", "ana@shop.com", "--password", "short"), 2, "nearcast: Password must be at least 6 characters");
    expectOneLineError(reset(dir, "--email", "not-an-email"), 2, "nearcast: Please enter a valid email address");
    expectOneLineError(reset(dir), 2, "error: required option '--email <email>' not specified");
    await withApi(dir, async (api) => expect((await login(api, "set-by-admin")).status).toBe(200));
  });

  test("--help shows examples", () => {
    const run = nearcast(["users", "reset-password", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Examples:\n  $ nearcast users reset-password --email owner@shop.com\n");
    // Issue 21: a password is asked for or piped in, never shown on the command line.
    expect(run.stdout).toContain("$ nearcast users reset-password --email owner@shop.com --set   # asks for the new password\n");
    expect(run.stdout).toContain('$ printf %s "$PASSWORD" | nearcast users reset-password --email owner@shop.com --password-stdin\n');
    expect(run.stdout).not.toContain("--password '");
    expect(nearcast(["users", "--help"]).stdout).toContain("$ nearcast users reset-password --email owner@shop.com");
  });
});
