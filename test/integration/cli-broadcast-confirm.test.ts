// `nearcast broadcast send` asks before sending to everyone (issue 11, item 6): on a terminal it asks the screen's
// question (recipients, messages, segments, cost) and needs "y"; without a terminal it refuses (exit 2) and says to
// add --yes; --yes sends without asking. The terminal is a real pseudo-terminal (util-linux `script`).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { broadcasts } from "../../src/db/schema.ts";
import { NO_TTY_REFUSAL } from "../../cli/broadcast-confirm.ts";
import { nearcast as runNearcast, nearcastCommand, sandboxEnv, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { cliShop } from "../helpers/worlds.ts";

setDefaultTimeout(30_000); // real processes

const dirs = tempDataDirs("nearcast-cli-confirm");
afterAll(() => dirs.removeAll());

const env = sandboxEnv();

/** Two SMS subscribers and one on WhatsApp. */
const world = () => cliShop(dirs, [{ phone: "+14157002001" }, { phone: "+14157002002" }, { phone: "+14157002003", contactPreference: "WhatsApp" }]);

const broadcastCount = (dir: string) => withDataDir(dir, (ctx) => ctx.db.select().from(broadcasts).all().length);

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** Runs the command on a pseudo-terminal, typing `typed` into it. */
function onTerminal(args: string[], dir: string, typed: string, extra: Record<string, string> = {}) {
  const command = nearcastCommand(args, dir).map(quote).join(" ");
  const p = Bun.spawnSync({ cmd: ["script", "-qec", command, "/dev/null"], env: { ...env, ...extra }, stdin: new Blob([typed]), stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode ?? -1, output: p.stdout.toString() + p.stderr.toString() };
}

// 161 GSM-7 characters: two segments per SMS; 2 SMS x 2 + 1 WhatsApp = 5 segments.
const LONG = `Fresh bread at 7! ${"x".repeat(143)}`;

describe("nearcast broadcast send asks first", () => {
  test("without a terminal and without --yes: the question, then a refusal with exit 2; nothing is written", () => {
    const w = world();
    const r = runNearcast(["broadcast", "send", "--business", String(w.businessId), "--message", LONG, "--no-wait"], w.dir, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Send to 2 customers (1 WhatsApp customer skipped): 2 messages (4 segments), no cost in the sandbox.");
    expect(r.stderr).toContain(NO_TTY_REFUSAL);
    expect(r.stderr).toContain("--yes");
    expect(broadcastCount(w.dir)).toBe(0);
  });

  test("--yes sends without asking", () => {
    const w = world();
    const r = runNearcast(["broadcast", "send", "--yes", "--business", String(w.businessId), "--message", LONG, "--no-wait"], w.dir, env);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("Send to");
    // Issue 23 item 8: the number the question would have shown (the WhatsApp customer is skipped), not 3.
    expect(r.stdout).toContain("Broadcast queued: 2 messages to 2 subscribers.");
    expect(broadcastCount(w.dir)).toBe(1);
  });

  test("a bad input is told as such, not asked about", () => {
    const w = world();
    const r = runNearcast(["broadcast", "send", "--business", String(w.businessId), "--message", "  "], w.dir, env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("Message text is required");
    expect(r.stderr).not.toContain("Send to");
  });

  test("on a terminal: the question with the cost from Twilio's price setting; \"y\" sends", () => {
    const w = world();
    // Scheduled, so nothing goes to Twilio now; its credentials only make the estimate priced.
    const at = ["--at", new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) + "T09:00-05:00"];
    const twilio = { TWILIO_ACCOUNT_SID: `AC${"0".repeat(32)}`, TWILIO_AUTH_TOKEN: "a-token-of-16-chars", TWILIO_FROM: "+15550001111", NEARCAST_PRICE_PER_SEGMENT: "0.01" };
    const r = onTerminal(["broadcast", "send", "--business", String(w.businessId), "--message", LONG, ...at], w.dir, "y\n", twilio);
    expect(r.output).toContain("Send to 2 customers at ");
    expect(r.output).toContain("(1 WhatsApp customer skipped): 2 messages (4 segments), about $0.04.");
    // How the cost is made (issue 23): count x price = cost per channel, then the question on its own line.
    expect(r.output).toContain("  SMS: 4 SMS segments × $0.01 = $0.04");
    expect(r.output).toContain("Send? [y/N]");
    expect(r.code).toBe(0);
    expect(r.output).toContain("Broadcast scheduled for");
    expect(broadcastCount(w.dir)).toBe(1);
  });

  test("on a terminal: anything but y sends nothing (exit 1)", () => {
    const w = world();
    const r = onTerminal(["broadcast", "send", "--business", String(w.businessId), "--message", "Hello", "--no-wait"], w.dir, "n\n");
    expect(r.output).toContain("Send to 2 customers (1 WhatsApp customer skipped): 2 messages (2 segments), no cost in the sandbox. Send? [y/N]");
    expect(r.output).toContain("not sent");
    expect(r.code).toBe(1);
    expect(broadcastCount(w.dir)).toBe(0);
  });
});
