// The world of the pause tests (issue 23 item 2; test/integration/sending-pause*.test.ts): the file's fake Twilio and a
// real SMTP sink, a context whose Twilio settings are saved in the database (so the admin's save changes them) and
// whose server dispatcher looks for changed settings every 20 ms, the admin with email set up, and the counts the
// tests make at the fake Twilio.
import { afterAll, beforeAll } from "bun:test";
import { OPERATOR } from "../../src/services/principal.ts";
import { apiClient } from "./api.ts";
import { testContext, type TestContext } from "./context.ts";
import { startSmtpServer, type TestSmtpServer } from "./smtp.ts";
import { until } from "./until.ts";
import { fakeTwilioForFile, member } from "./worlds.ts";

export const PAUSE_ADMIN = "boss@example.com";
export const PAUSE_PUBLIC_URL = "https://shop.example.com";

/** Starts the server's dispatcher, and waits until it follows the Twilio settings saved after it was made. */
export async function startServerDispatcher(ctx: TestContext): Promise<void> {
  ctx.dispatcher.start();
  await until(() => ctx.logger.lines.some((l) => l.includes("via twilio")), 5000, "the dispatcher on the saved Twilio settings");
}

/** Runs `fn`, then stops the server's dispatcher and closes the context however `fn` ends. */
export async function closing(ctx: TestContext, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } finally {
    await ctx.dispatcher.stop();
    ctx.close();
  }
}

/** Runs `fn` while a dispatcher of its own (on the context's settings, with `options`) sends. */
export async function withDispatcher(ctx: TestContext, options: Parameters<TestContext["dispatcherWith"]>[0], fn: () => Promise<unknown>): Promise<void> {
  const d = ctx.dispatcherWith(options);
  d.start();
  try {
    await fn();
  } finally {
    await d.stop();
  }
}

/** Registers the file's fake Twilio (reset before each test) and SMTP sink; answers the world builder and counts. */
export function usePauseWorld() {
  const fake = fakeTwilioForFile({ resetEach: true });
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer({ user: "mailer@shop.example", password: "S3cr3t-pass", tls: "starttls" });
  });
  afterAll(() => smtp.close());

  /** The admin (with email set up), the API, and Twilio saved in the database with `twilio` (its senders). */
  function world(twilio: Record<string, string>) {
    const ctx = testContext(
      { TWILIO_API_BASE: fake.url, NEARCAST_QUIET_HOURS: "off", NEARCAST_MAX_PER_DAY: "0", NEARCAST_SEND_RATE: "40", NEARCAST_SMTP_URL: smtp.url },
      {},
      { mailTls: { ca: smtp.ca! }, settingsCheckEveryMs: 20 },
    );
    ctx.services.settings.update(OPERATOR, { twilioAccountSid: fake.accountSid, twilioAuthToken: fake.authToken, publicUrl: PAUSE_PUBLIC_URL, ...twilio });
    const admin = member(ctx, { role: "admin", email: PAUSE_ADMIN });
    smtp.received.length = 0;
    return { ctx, api: apiClient(ctx), admin };
  }

  /** How many messages Twilio (the fake) accepted for each number. */
  function acceptedPerNumber(): Map<string, number> {
    const n = new Map<string, number>();
    for (const m of fake.messages.values()) n.set(m.to, (n.get(m.to) ?? 0) + 1);
    return n;
  }

  /** The emails the admins got, once the ones under way have gone. */
  async function mailsToAdmin(ctx: TestContext) {
    await ctx.services.sendingPause.idle();
    return smtp.received.filter((m) => m.rcptTo.includes(PAUSE_ADMIN));
  }

  return { fake, world, acceptedPerNumber, mailsToAdmin };
}
