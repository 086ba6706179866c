// `nearcast doctor` as a user runs it: a real process on a real data directory, asking the fake Twilio whether it
// accepts the credentials (the CLI runs as a child process, so the fake in this process can answer it).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { businessTypes } from "../../src/db/schema.ts";
import { INBOUND_SEEN_KEY } from "../../src/services/checklist.ts";
import { EMAIL_SENT_KEY } from "../../src/services/email-outcomes.ts";
import { type Env, type Run, cliEnv, nearcast, nearcastCommand, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { fakeTwilioForFile } from "../helpers/worlds.ts";

setDefaultTimeout(30_000); // every test starts a real process

const NO_SETTINGS: Env = {
  NEARCAST_PUBLIC_URL: undefined,
  NEARCAST_SMTP_URL: undefined,
  NEARCAST_MAIL_FROM: undefined,
  TWILIO_ACCOUNT_SID: undefined,
  TWILIO_AUTH_TOKEN: undefined,
  TWILIO_FROM: undefined,
  TWILIO_MESSAGING_SERVICE_SID: undefined,
  TWILIO_WHATSAPP_FROM: undefined,
  // doctor reports the shop's own quiet hours and cap: the defaults, not the test switch-off of cliEnv.
  NEARCAST_QUIET_HOURS: undefined,
  NEARCAST_MAX_PER_DAY: undefined,
  TWILIO_API_BASE: undefined,
};

async function doctor(dataDir: string, extra: Env = {}, ...args: string[]): Promise<Run> {
  const p = Bun.spawn({ cmd: nearcastCommand(["doctor", ...args], dataDir), env: cliEnv({ ...NO_SETTINGS, ...extra }), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

/** "ok    Title:  detail" lines as [mark, title]. */
const marks = (run: Run) => run.stdout.trimEnd().split("\n").map((line) => /^(ok|warn|FAIL)\s+([^:]+):/.exec(line)?.slice(1, 3));

const dirs = tempDataDirs("nearcast-cli-doctor");
const fake = fakeTwilioForFile();
/** A server on loopback that answers /api/health as Nearcast does: the public URL of the all-green test. */
const health = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => (new URL(req.url).pathname === "/api/health" ? Response.json({ status: "ok" }) : new Response("", { status: 404 })) });
afterAll(async () => {
  dirs.removeAll();
  await health.stop(true);
});

describe("nearcast doctor", () => {
  test("a fresh install: FAIL on the public URL (exit 1), warnings for the sandbox, webhook and email", async () => {
    const run = await doctor(dirs.make());
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    expect(marks(run)).toEqual([
      ["FAIL", "Public URL"],
      ["warn", "Messages"],
      ["warn", "Inbound webhook"],
      ["warn", "Email"],
      ["ok", "Business types"],
      ["ok", "Quiet hours"],
      ["warn", "Backups"],
    ]);
    expect(run.stdout).toContain("Sandbox: messages are recorded, not sent.");
    expect(run.stdout).toContain("Forgot-password cannot send email; set SMTP in Settings.");
    expect(run.stdout).toContain("8 active business types.");
    // The details start in one column.
    const starts = run.stdout.trimEnd().split("\n").map((l) => l.search(/(?<=:\s+)\S/));
    expect(new Set(starts).size).toBe(1);
  });

  // Green needs the public URL to answer /api/health and an email to have gone through (issue 23 item 10): a server
  // on loopback answers for the public URL (the fake Twilio is on loopback too, so a loopback URL is fine).
  test("everything set and Twilio accepting the credentials: all ok, exit 0; --json prints the items", async () => {
    const dir = dirs.make();
    withDataDir(dir, (ctx) => {
      ctx.repos.settings.save(INBOUND_SEEN_KEY, "2026-11-20T08:15:30.000Z", new Date());
      ctx.repos.settings.save(EMAIL_SENT_KEY, JSON.stringify({ at: "2026-11-20T08:20:00.000Z", server: "mail.example.com:587" }), new Date());
    });
    expect(nearcast(["backup"], dir).code).toBe(0);
    const publicUrl = `http://127.0.0.1:${health.port}`;
    const env = { ...fake.settings(), NEARCAST_PUBLIC_URL: publicUrl, NEARCAST_SMTP_URL: "smtp://u:p@mail.example.com:587" };
    const before = fake.requests.length;
    const run = await doctor(dir, env);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(marks(run).map((m) => m?.[0])).toEqual(["ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok"]);
    // Twilio answers keywords (keywordReplies twilio): the texts to paste, naming the brand (no business yet).
    expect(run.stdout).toContain('STOP "You have been unsubscribed from Nearcast messages. Reply START to resubscribe."');
    expect(run.stdout).toMatch(/The last backup is 1 minute\(s\) old: .*\/backups\/nearcast-\d{8}T\d{6}Z\.tar\.gz\. Copy the backups folder off this machine too\./);
    expect(run.stdout).toContain(`Twilio accepts the credentials of "My first Twilio account" (${fake.accountSid}).`);
    expect(run.stdout).toContain("Seen 2026-11-20 08:15 UTC");
    expect(run.stdout).toContain(`${publicUrl}: it answered /api/health when this server asked it`);
    expect(run.stdout).toContain("Done: an email went through 2026-11-20 08:20 UTC");
    // One read-only request: the account itself, with Basic auth.
    const asked = fake.requests.slice(before);
    expect(asked.map((r) => [r.method, r.path])).toEqual([["GET", `/2010-04-01/Accounts/${fake.accountSid}.json`]]);
    expect(asked[0]!.auth).toEqual({ username: fake.accountSid, password: fake.authToken });

    const json = await doctor(dir, env, "--json");
    expect(json.code).toBe(0);
    const items = JSON.parse(json.stdout);
    expect(items.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([
      ["publicUrl", "green"],
      ["messages", "green"],
      ["inboundWebhook", "green"],
      ["keywordReplies", "green"],
      ["email", "green"],
      ["businessTypes", "green"],
      ["quietHours", "green"],
      ["backups", "green"],
    ]);
  });

  test("a wrong auth token: FAIL with Twilio's message, exit 1", async () => {
    const env = { ...fake.settings(), TWILIO_AUTH_TOKEN: "wrong-token-0123456789abcdef", NEARCAST_PUBLIC_URL: "https://deals.example.com" };
    const run = await doctor(dirs.make(), env);
    expect(run.code).toBe(1);
    expect(marks(run)[1]).toEqual(["FAIL", "Messages"]);
    expect(run.stdout).toContain("Twilio refused the credentials (Authenticate): check the account SID and auth token in Settings.");
  });

  test("a suspended account is FAIL; Twilio unreachable is only a warning", async () => {
    const env = { ...fake.settings(), NEARCAST_PUBLIC_URL: "https://deals.example.com" };
    fake.accountStatus = "suspended";
    try {
      const suspended = await doctor(dirs.make(), env);
      expect(suspended.code).toBe(1);
      expect(suspended.stdout).toContain(`Twilio account ${fake.accountSid} is suspended`);
    } finally {
      fake.accountStatus = "active";
    }
    const down = await doctor(dirs.make(), { ...env, TWILIO_API_BASE: "http://127.0.0.1:9" });
    expect(down.code).toBe(0);
    expect(marks(down)[1]).toEqual(["warn", "Messages"]);
    expect(down.stdout).toContain("Twilio could not be reached to check the credentials");
  });

  test("no active business type and a private public URL: both FAIL", async () => {
    const dir = dirs.make();
    withDataDir(dir, (ctx) => ctx.db.update(businessTypes).set({ isActive: false }).run());
    const run = await doctor(dir, { NEARCAST_PUBLIC_URL: "http://192.168.1.20:3000" });
    expect(run.code).toBe(1);
    expect(marks(run)[0]).toEqual(["FAIL", "Public URL"]);
    expect(marks(run)[4]).toEqual(["FAIL", "Business types"]);
    expect(run.stdout).toContain("http://192.168.1.20:3000: Phones outside this network cannot open this link.");
  });

  test("--help has Examples", async () => {
    const help = Bun.spawnSync({ cmd: nearcastCommand(["doctor", "--help"]), env: cliEnv() });
    expect(help.exitCode).toBe(0);
    expect(help.stdout.toString()).toContain("Examples:\n  $ nearcast doctor");
  });
});
