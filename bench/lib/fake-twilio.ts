// The fake Twilio of the benches, in a process of its own (bench/_fake-twilio.ts): starting it, and the
// configuration that points Nearcast's Twilio adapter at it (bench/broadcast.ts and its dispatch side,
// bench/_dispatch.ts, send the same way).
import { join } from "node:path";
import type { Subprocess } from "bun";
import { type Config, loadConfig } from "../../src/config.ts";
import type { FakeTwilio } from "../../test/helpers/fake-twilio.ts";

export const SMS_FROM = "+15550001111";
export const PUBLIC_URL = "https://bench.example.com";

/** What bench/_fake-twilio.ts prints of the fake it runs. */
export type FakeTwilioAddress = Pick<FakeTwilio, "url" | "accountSid" | "authToken">;

export function fakeTwilioConfig(fake: FakeTwilioAddress, dataDir: string | undefined): Config {
  return loadConfig(
    {
      NEARCAST_PUBLIC_URL: PUBLIC_URL,
      TWILIO_ACCOUNT_SID: fake.accountSid,
      TWILIO_AUTH_TOKEN: fake.authToken,
      TWILIO_FROM: SMS_FROM,
      TWILIO_API_BASE: fake.url,
    },
    { dataDir },
  );
}

/** The running fake: its address, where it answers how many messages it has created, and its process. */
export interface FakeTwilioProcess extends FakeTwilioAddress {
  countUrl: string;
  proc: Subprocess;
}

/** Starts bench/_fake-twilio.ts and reads the one JSON line it announces itself with. */
export async function startFakeTwilioProcess(): Promise<FakeTwilioProcess> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "..", "_fake-twilio.ts")], { stdout: "pipe", stderr: "inherit" });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the fake Twilio did not start");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { ...(JSON.parse(text.slice(0, text.indexOf("\n"))) as FakeTwilioAddress & { countUrl: string }), proc };
}
