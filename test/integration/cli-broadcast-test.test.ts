// `nearcast broadcast test` as a user runs it (issue 23 item 6), against the fake Twilio: a WhatsApp template test
// sends the template, then waits for its delivery report, which a server on the same data directory receives (here:
// the app of a context on that directory, posted Twilio's signed callback); --no-wait returns at once; a refusal
// exits 1 with the reason.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { apiClient, PUBLIC_URL } from "../helpers/api.ts";
import { cliEnv, nearcastCommand, tempDataDirs } from "../helpers/cli.ts";
import { sendStatusCallback } from "../helpers/fake-twilio-callbacks.ts";
import { FAKE_TEXT_TEMPLATE_SID } from "../helpers/fake-twilio.ts";
import { until } from "../helpers/until.ts";
import { cliShop, fakeTwilioForFile } from "../helpers/worlds.ts";

setDefaultTimeout(30_000); // real processes

const dirs = tempDataDirs("nearcast-cli-test-send");
afterAll(() => dirs.removeAll());
const fake = fakeTwilioForFile({ resetEach: true });
const TO = "+447400123458";
const env = () => cliEnv({ ...fake.settings(), NEARCAST_PUBLIC_URL: PUBLIC_URL, NEARCAST_ALLOWED_COUNTRIES: "*" });
const templateArgs = (businessId: number) => [
  "broadcast", "test", "--business", String(businessId), "--to", TO, "--channel", "whatsapp",
  "--template", FAKE_TEXT_TEMPLATE_SID, "--var", "1=Ana's Bakery", "--var", "2=Rye is back", "--message", "Rye is back",
];

async function collect(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

/** Runs the command without blocking this process, where the fake Twilio answers it. */
async function runAsync(args: string[], dir: string) {
  const p = Bun.spawn({ cmd: nearcastCommand(args, dir), env: env(), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([collect(p.stdout), collect(p.stderr), p.exited]);
  return { stdout, stderr, code };
}

describe("nearcast broadcast test", () => {
  test("a WhatsApp template test: the fake gets ContentSid and the variables; the command waits and prints Delivered", async () => {
    const w = cliShop(dirs, 0);
    const p = Bun.spawn({ cmd: nearcastCommand(templateArgs(w.businessId), w.dir), env: env(), stdout: "pipe", stderr: "pipe" });
    const stdout = collect(p.stdout);
    await until(() => fake.sends().length === 1);
    const send = fake.sends()[0]!;
    expect(send.form.ContentSid).toBe(FAKE_TEXT_TEMPLATE_SID);
    expect(JSON.parse(String(send.form.ContentVariables))).toEqual({ "1": "Ana's Bakery", "2": "Rye is back" });
    expect(send.form.Body).toBeUndefined();
    // The server of this data directory receives Twilio's callback.
    const server = createContext(loadConfig({ ...env(), NEARCAST_DATA_DIR: w.dir }, { dataDir: w.dir }), { logger: new MemoryLogger() });
    try {
      const message = [...fake.messages.values()][0]!;
      expect((await sendStatusCallback(apiClient(server), message, "delivered")).status).toBe(200);
    } finally {
      server.close();
    }
    expect(await p.exited).toBe(0);
    const out = await stdout;
    expect(out).toMatch(new RegExp(`^Test sent by WhatsApp \\(template weekly_offer\\) to \\${TO}\\. \\(test \\d+\\)\\nDelivered\\n$`));
  });

  test("--no-wait prints the provider's answer and returns", async () => {
    const w = cliShop(dirs, 0);
    const r = await runAsync(["broadcast", "test", "--business", String(w.businessId), "--to", TO, "--message", "2 for 1", "--no-wait"], w.dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Test sent by SMS to \+447400123458\. \(test \d+\)\n$/);
    expect(fake.sends()[0]!.form.Body).toBe("2 for 1");
  });

  test("a refused number: exit 1 with Twilio's reason", async () => {
    const w = cliShop(dirs, 0);
    fake.script("invalid_number");
    const r = await runAsync(["broadcast", "test", "--business", String(w.businessId), "--to", TO, "--message", "2 for 1"], w.dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("was not sent: Invalid 'To' Phone Number (error 21211)");
  });
});
