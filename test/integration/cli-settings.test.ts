// `nearcast settings get|set` as a user runs it: a real process on a real data directory; what it saves is what a
// server opened on the same directory uses at once.
// Not the scenario runner: it runs the CLI as a real process; one API read checks what a server then sees.
import { afterAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { SETTING_KEYS } from "../../src/schemas/settings.ts";
import { apiClient } from "../helpers/api.ts";
import { cliEnv, type Run, json, nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";

const dirs = tempDataDirs("nearcast-cli-settings");
afterAll(dirs.removeAll);

const settings = (dataDir: string, args: string[], env: Record<string, string> = {}) => nearcast(["settings", ...args], dataDir, cliEnv(env));
const spawnWithStdin = (dataDir: string, args: string[], input: string): Run => {
  const p = Bun.spawnSync({
    cmd: [process.execPath, `${import.meta.dir}/../../cli/main.ts`, "settings", ...args, "--data-dir", dataDir],
    env: cliEnv(),
    stdin: new TextEncoder().encode(input),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode ?? -1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
};

/** A user-facing failure: the exit code, nothing on stdout, exactly one "nearcast: ..." line. */
function expectOneLineError(run: Run, code: number, message: string): void {
  expect(run.code).toBe(code);
  expect(run.stdout).toBe("");
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines).toEqual([message]);
}

const TOKEN = "cli-s3cret-token-0123456789";
const SMTP = "smtp://mailer:cli-smtp-password@mail.example.com:587";

describe("settings get", () => {
  test("a fresh directory: every key as a table KEY / VALUE / SOURCE, defaults and unset", () => {
    const run = settings(dirs.make(), ["get"]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^KEY\s+VALUE\s+SOURCE$/);
    expect(lines).toHaveLength(1 + SETTING_KEYS.length);
    expect(lines).toContainEqual(expect.stringMatching(/^publicUrl\s+\(not set\)\s+unset$/));
    expect(lines).toContainEqual(expect.stringMatching(/^brandName\s+Nearcast\s+default$/));
    expect(lines).toContainEqual(expect.stringMatching(/^sendRate\s+1\s+default$/));
    expect(lines).toContainEqual(expect.stringMatching(/^uploadQuotaMb\s+200\s+default$/));
    expect(lines).toContainEqual(expect.stringMatching(/^twilioAuthToken\s+\(not set\)\s+unset$/));
  });

  test("one key prints its value alone; an unset one an empty line; --json its view", () => {
    const dir = dirs.make();
    expect(settings(dir, ["get", "contactEmail"])).toEqual({ code: 0, stdout: "hello@nearcast.app\n", stderr: "" });
    expect(settings(dir, ["get", "publicUrl"])).toEqual({ code: 0, stdout: "\n", stderr: "" });
    expect(json(settings(dir, ["get", "sendRate", "--json"]))).toEqual({ value: "1", source: "default", env: "NEARCAST_SEND_RATE", secret: false });
    const all = json(settings(dir, ["get", "--json"]));
    expect(all.brandName).toEqual({ value: "Nearcast", source: "default", env: "NEARCAST_BRAND_NAME", secret: false });
  });

  test("secrets show only as (set) or (not set), never their value, in the table, alone or as JSON", () => {
    const dir = dirs.make();
    expect(settings(dir, ["set", "twilioAuthToken", TOKEN])).toEqual({ code: 0, stdout: "Saved twilioAuthToken (secret, not shown)\n", stderr: "" });
    expect(settings(dir, ["set", "smtpUrl", SMTP]).code).toBe(0);
    const runs = [settings(dir, ["get"]), settings(dir, ["get", "twilioAuthToken"]), settings(dir, ["get", "smtpUrl"]), settings(dir, ["get", "--json"])];
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.stdout + run.stderr).not.toContain(TOKEN);
      expect(run.stdout + run.stderr).not.toContain("cli-smtp-password");
    }
    expect(runs[0]!.stdout).toMatch(/^twilioAuthToken\s+\(set\)\s+saved$/m);
    expect(runs[1]!.stdout).toBe("(set)\n");
    expect(runs[2]!.stdout).toBe("(set)\n");
    // Stored as given: the server uses them.
    withDataDir(dir, (ctx) => {
      expect(ctx.services.settings.current().twilio).toBeNull(); // a token alone is not enough for Twilio
      expect(ctx.repos.settings.get("twilioAuthToken")).toBe(TOKEN);
      expect(ctx.services.settings.current().smtpUrl).toBe(SMTP);
    });
  });

  test("a setting from the environment shows its variable as the source", () => {
    const run = settings(dirs.make(), ["get"], { NEARCAST_PUBLIC_URL: "https://env.example.org" });
    expect(run.stdout).toMatch(/^publicUrl\s+https:\/\/env\.example\.org\s+env NEARCAST_PUBLIC_URL$/m);
  });

  test("an unknown key: exit 2, one line naming it", () => {
    const run = settings(dirs.make(), ["get", "adminPassword"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toStartWith('nearcast: Unknown setting "adminPassword" (keys: publicUrl, brandName,');
  });
});

describe("settings set", () => {
  test("saves a value, normalised as the API does, and prints it", () => {
    const dir = dirs.make();
    expect(settings(dir, ["set", "publicUrl", "https://deals.example.com/"])).toEqual({ code: 0, stdout: "Saved publicUrl: https://deals.example.com\n", stderr: "" });
    expect(settings(dir, ["set", "sendRate", "2.50"]).stdout).toBe("Saved sendRate: 2.5\n");
    expect(settings(dir, ["get", "publicUrl"]).stdout).toBe("https://deals.example.com\n");
    expect(settings(dir, ["get"]).stdout).toMatch(/^publicUrl\s+https:\/\/deals\.example\.com\s+saved$/m);
  });

  test('"" clears the saved value back to the default', () => {
    const dir = dirs.make();
    settings(dir, ["set", "brandName", "Corner Deals"]);
    settings(dir, ["set", "publicUrl", "https://deals.example.com"]);
    expect(settings(dir, ["set", "brandName", ""])).toEqual({ code: 0, stdout: "Cleared brandName (now Nearcast, the default)\n", stderr: "" });
    expect(settings(dir, ["set", "publicUrl", ""]).stdout).toBe("Cleared publicUrl\n");
    withDataDir(dir, (ctx) => expect(ctx.repos.settings.all()).toEqual({}));
  });

  test("- reads the value from standard input, so a secret stays out of the command line", () => {
    const dir = dirs.make();
    const run = spawnWithStdin(dir, ["set", "twilioAuthToken", "-"], `${TOKEN}\n`);
    expect(run).toEqual({ code: 0, stdout: "Saved twilioAuthToken (secret, not shown)\n", stderr: "" });
    withDataDir(dir, (ctx) => expect(ctx.repos.settings.get("twilioAuthToken")).toBe(TOKEN));
  });

  for (const [key, value, message] of [
    ["publicUrl", "ftp://x", "Public URL must be an http:// or https:// address, without a query or fragment"],
    ["smtpUrl", "http://x", "SMTP URL must look like smtp://user:password@host:587 or smtps://user:password@host:465"],
    ["twilioAccountSid", "AC123", "Twilio account SID must be AC followed by 32 hexadecimal characters"],
    ["sendRate", "fast", "Send rate must be a number from 0.01 to 10000 (messages per second)"],
  ] as const) {
    test(`${key} ${value}: exit 2, one line naming the key, nothing saved`, () => {
      const dir = dirs.make();
      expectOneLineError(settings(dir, ["set", key, value]), 2, `nearcast: ${key}: ${message}`);
      withDataDir(dir, (ctx) => expect(ctx.repos.settings.all()).toEqual({}));
    });
  }

  test("an unknown key: exit 2, nothing saved", () => {
    const dir = dirs.make();
    const run = settings(dir, ["set", "adminPassword", "x"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toStartWith('nearcast: Unknown setting "adminPassword"');
    withDataDir(dir, (ctx) => expect(ctx.repos.settings.all()).toEqual({}));
  });

  test("a key the environment sets: exit 2 saying which variable, nothing saved", () => {
    const dir = dirs.make();
    expectOneLineError(
      settings(dir, ["set", "publicUrl", "https://mine.example.com"], { NEARCAST_PUBLIC_URL: "https://env.example.org" }),
      2,
      "nearcast: publicUrl: NEARCAST_PUBLIC_URL is set on the server, so this setting cannot be changed here",
    );
    withDataDir(dir, (ctx) => expect(ctx.repos.settings.all()).toEqual({}));
  });

  test("a missing value is a usage error (exit 2)", () => {
    const run = settings(dirs.make(), ["set", "brandName"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("missing required argument 'value'");
  });

  test("a server on the same data directory uses the value at once", async () => {
    const dir = dirs.make();
    // The server's context stays open across the CLI runs (withDataDir closes at once, so not here).
    const server = createContext(loadConfig({}, { dataDir: dir }), { logger: new MemoryLogger() });
    try {
      const api = apiClient(server);
      const LAN = "http://192.168.1.20:3000";
      expect((await api.get(`${LAN}/api/site`)).body).toMatchObject({ brandName: "Nearcast", publicUrl: LAN, publicUrlSource: "request" });
      expect(settings(dir, ["set", "publicUrl", "https://deals.example.com"]).code).toBe(0);
      expect(settings(dir, ["set", "brandName", "Corner Deals"]).code).toBe(0);
      // The same open context, no restart: the next request sees the new values.
      expect((await api.get(`${LAN}/api/site`)).body).toMatchObject({
        brandName: "Corner Deals",
        publicUrl: "https://deals.example.com",
        publicUrlSource: "saved",
        publicUrlPrivate: false,
      });
      expect(server.services.qrCodes.subscribeUrl(3, LAN)).toBe("https://deals.example.com/subscribe?id=3");
      expect(server.services.settings.messaging().publicUrl).toBe("https://deals.example.com");
    } finally {
      server.close();
    }
  });
});

test("settings --help and its subcommands' --help show Examples", () => {
  for (const args of [["--help"], ["get", "--help"], ["set", "--help"]]) {
    const run = nearcast(["settings", ...args]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Examples:\n  $ nearcast settings");
  }
});
