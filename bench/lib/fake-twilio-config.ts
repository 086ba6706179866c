// The fake Twilio as bench/_fake-twilio.ts announces it, and the configuration that points Nearcast's Twilio
// adapter at it: bench/broadcast.ts and its dispatch side (bench/_dispatch.ts) send the same way.
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
