// Issue 21, item 5: `users create` and `users reset-password` take the password from a prompt that does not echo (on
// a terminal: driven here through a pseudo-terminal made by util-linux `script`) or from --password-stdin; without
// either, and with no terminal, they exit 2 saying how. --password still works for scripts, but no help shows it.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { NO_TERMINAL, PASSWORDS_DIFFER } from "../../cli/read-password.ts";
import { cliEnv, nearcast, nearcastCommand, type Run, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { until } from "../helpers/until.ts";

// Each run is a process, and argon2 is deliberately slow.
setDefaultTimeout(60_000);

const dirs = tempDataDirs("nearcast-cli-password");
afterAll(dirs.removeAll);

/** `nearcast args` with `input` on standard input (a pipe, not a terminal). */
function piped(args: string[], dir: string | undefined, input: string): Run {
  const p = Bun.spawnSync({ cmd: nearcastCommand(args, dir), env: cliEnv(), stdin: new TextEncoder().encode(input), stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode ?? -1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

/** Whether `password` logs `email` in on the directory's database. */
const passwordWorks = (dir: string, email: string, password: string) =>
  withDataDir(dir, async (ctx) => {
    const user = ctx.repos.users.findByEmail(email);
    return !!user && (await Bun.password.verify(password, user.passwordHash));
  });

// util-linux `script` makes the pseudo-terminal (Debian has it in bsdutils, always installed).
const SCRIPT = Bun.which("script") ?? "/usr/bin/script";

/**
 * `nearcast args` on a pseudo-terminal: each answer is typed once its prompt has appeared (so the terminal's own echo
 * could not be what hides it). Returns the exit code and everything the terminal showed.
 */
async function onTerminal(args: string[], dir: string, answers: [prompt: string, typed: string][]): Promise<{ code: number; screen: string }> {
  const command = nearcastCommand(args, dir).map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const p = Bun.spawn([SCRIPT, "-qfec", command, "/dev/null"], { stdin: "pipe", stdout: "pipe", stderr: "pipe", env: cliEnv() });
  let screen = "";
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of p.stdout) screen += decoder.decode(chunk);
  })();
  let seen = 0;
  for (const [prompt, typed] of answers) {
    await until(() => screen.indexOf(prompt, seen) >= 0, 20_000, `the prompt ${JSON.stringify(prompt)}`);
    seen = screen.indexOf(prompt, seen) + prompt.length;
    p.stdin.write(`${typed}\r`);
    p.stdin.flush();
  }
  const code = await p.exited;
  await reading;
  return { code, screen };
}

/** `args` (naming --email) on a terminal typing `password` at both prompts: it works, `said` shows, none of `hidden` does. */
async function askedTwiceOnTerminal(args: string[], dir: string, said: string, password: string, hidden: string[]) {
  const { code, screen } = await onTerminal(args, dir, [
    ["Password: ", password],
    ["Password again: ", password],
  ]);
  expect(code).toBe(0);
  expect(screen).toContain(said);
  for (const text of hidden) expect(screen).not.toContain(text);
  expect(await passwordWorks(dir, args[args.indexOf("--email") + 1]!, password)).toBe(true);
}

describe("users create", () => {
  test("--password-stdin: the first line of standard input is the password", async () => {
    const dir = dirs.makeEmpty();
    const run = piped(["users", "create", "--email", "ana@shop.com", "--password-stdin"], dir, "from stdin 1\n");
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toStartWith("Created owner ana@shop.com");
    expect(await passwordWorks(dir, "ana@shop.com", "from stdin 1")).toBe(true);
  });

  test("no terminal and no password flag: exit 2, one line saying how; nothing created", () => {
    const dir = dirs.makeEmpty();
    const run = piped(["users", "create", "--email", "ana@shop.com"], dir, "");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`nearcast: ${NO_TERMINAL("nearcast users create --email ...")}\n`);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("--password and --password-stdin together: exit 2", () => {
    const dir = dirs.makeEmpty();
    const run = piped(["users", "create", "--email", "ana@shop.com", "--password", "secret-1", "--password-stdin"], dir, "secret-2\n");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("nearcast: Give the password one way: --password-stdin or the prompt, not both\n");
    expect(existsSync(`${dir}/nearcast.db`)).toBe(false);
  });

  test("--password <value> still works for scripts", async () => {
    const dir = dirs.makeEmpty();
    expect(nearcast(["users", "create", "--email", "ana@shop.com", "--password", "old-style", "--admin"], dir).code).toBe(0);
    expect(await passwordWorks(dir, "ana@shop.com", "old-style")).toBe(true);
  });

  test("on a terminal: asked twice, never echoed", () =>
    askedTwiceOnTerminal(["users", "create", "--email", "tty@shop.com", "--admin"], dirs.makeEmpty(), "Created admin tty@shop.com", "typed s3cret", ["typed", "s3cret"]));

  test("on a terminal: two different answers create nothing (exit 2)", async () => {
    const dir = dirs.makeEmpty();
    const { code, screen } = await onTerminal(["users", "create", "--email", "tty@shop.com"], dir, [
      ["Password: ", "first try"],
      ["Password again: ", "second try"],
    ]);
    expect(code).toBe(2);
    expect(screen).toContain(`nearcast: ${PASSWORDS_DIFFER}`);
    expect(screen).not.toContain("try");
    expect(readdirSync(dir)).toEqual([]);
  });

  test("--help and `users --help` show the prompt and --password-stdin, never a password on the command line", () => {
    for (const args of [["users", "create", "--help"], ["users", "--help"], ["users", "reset-password", "--help"]]) {
      const run = nearcast(args);
      expect(run.code).toBe(0);
      expect(run.stdout).not.toMatch(/--password[ =]['"\w]/);
      expect(run.stdout).not.toContain("--password [");
    }
    expect(nearcast(["users", "create", "--help"]).stdout).toContain("--password-stdin");
    expect(nearcast(["users", "create", "--help"]).stdout).toContain("$ nearcast users create --email admin@shop.com --admin   # asks for the password");
  });
});

describe("users reset-password", () => {
  const made = () => {
    const dir = dirs.makeEmpty();
    expect(piped(["users", "create", "--email", "ana@shop.com", "--password-stdin"], dir, "old-secret").code).toBe(0);
    return dir;
  };

  test("--password-stdin sets the password (no link printed)", async () => {
    const dir = made();
    const run = piped(["users", "reset-password", "--email", "ana@shop.com", "--password-stdin"], dir, "new-secret\r\n");
    expect(run).toEqual({ code: 0, stdout: "Password set for ana@shop.com; every session of the account was signed out.\n", stderr: "" });
    expect(await passwordWorks(dir, "ana@shop.com", "new-secret")).toBe(true);
  });

  test("--set without a terminal: exit 2 saying how; the password is unchanged", async () => {
    const dir = made();
    const run = piped(["users", "reset-password", "--email", "ana@shop.com", "--set"], dir, "");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`nearcast: ${NO_TERMINAL("nearcast users reset-password --email ...")}\n`);
    expect(await passwordWorks(dir, "ana@shop.com", "old-secret")).toBe(true);
  });

  test("--set on a terminal: asked twice, never echoed", () =>
    askedTwiceOnTerminal(["users", "reset-password", "--email", "ana@shop.com", "--set"], made(), "Password set for ana@shop.com", "brand new 1", ["brand new"]));
});
