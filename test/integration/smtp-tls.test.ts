// Issue 21, item 5: SMTP never sends a password over a connection that did not start TLS, unless the URL says so with
// ?insecure=1 (and then the checklist's email line is amber). Against the real SMTP sink on loopback in its three
// modes: plain without STARTTLS, STARTTLS, and smtps:// (TLS from the start), with a certificate made at test time.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { EmailFailedError, createSmtpMailer, type MailSettings } from "../../src/mail/mailer.ts";
import { NO_STARTTLS } from "../../src/mail/redact.ts";
import { SMTP_URL_OPTIONS } from "../../src/schemas/settings.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { apiClient } from "../helpers/api.ts";
import { sessionFor } from "../helpers/customer-factories.ts";
import { insertUser } from "../helpers/factories.ts";
import { testContext } from "../helpers/context.ts";
import { type ApiScenario, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

setDefaultTimeout(30_000);

const USER = "mailer@shop.example";
const PASSWORD = "S3cr3t/p@ss w0rd!";

// One server per way of speaking SMTP: plain with a login, STARTTLS, implicit TLS, and open (no login).
let plain: TestSmtpServer, starttls: TestSmtpServer, implicit: TestSmtpServer, open: TestSmtpServer;
beforeAll(async () => {
  [plain, starttls, implicit, open] = await Promise.all([
    startSmtpServer({ user: USER, password: PASSWORD }),
    startSmtpServer({ user: USER, password: PASSWORD, tls: "starttls" }),
    startSmtpServer({ user: USER, password: PASSWORD, tls: "implicit" }),
    startSmtpServer(),
  ]);
});
afterAll(() => Promise.all([plain, starttls, implicit, open].map((s) => s.close())));

const settingsFor = (smtpUrl: string): MailSettings => ({ smtpUrl, mailFrom: null, brandName: "Nearcast", contactEmail: "hello@shop.example" });
const mailerFor = (smtpUrl: string, trust = true) =>
  createSmtpMailer({ settings: () => settingsFor(smtpUrl), timeoutMs: 5_000, tls: trust ? { ca: starttls.ca! } : undefined });
const message = (to: string) => ({ to, subject: "Hello", text: "Hi there" });

async function failureOf(p: Promise<void>): Promise<EmailFailedError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(EmailFailedError);
    return err as EmailFailedError;
  }
  throw new Error("the send did not fail");
}

describe("the mailer", () => {
  test("smtp:// with a password to a server without STARTTLS: refused before AUTH; no password and no mail sent", async () => {
    const err = await failureOf(mailerFor(plain.url).send(message("a@example.com")));
    expect(err.reason).toBe(NO_STARTTLS(`127.0.0.1:${plain.port}`));
    expect(err.message).not.toContain(PASSWORD);
    expect(plain.auths).toEqual([]);
    expect(plain.received.filter((m) => m.rcptTo.includes("a@example.com"))).toEqual([]);
  });

  test("smtp:// with a password to a server with STARTTLS: upgraded first, then AUTH and the mail, all encrypted", async () => {
    await mailerFor(starttls.url).send(message("b@example.com"));
    const mail = starttls.received.find((m) => m.rcptTo.includes("b@example.com"))!;
    expect(mail).toMatchObject({ user: USER, secure: true, subject: "Hello" });
    expect(starttls.auths.length).toBeGreaterThan(0);
    expect(starttls.auths.every((a) => a.secure)).toBe(true);
  });

  test("STARTTLS with a certificate nobody vouches for: refused, no AUTH heard", async () => {
    const before = starttls.auths.length;
    const err = await failureOf(mailerFor(starttls.url, false).send(message("c@example.com")));
    expect(err.reason).toBe(`the connection to 127.0.0.1:${starttls.port} failed (self signed certificate)`);
    expect(starttls.auths.length).toBe(before);
    expect(starttls.received.some((m) => m.rcptTo.includes("c@example.com"))).toBe(false);
  });

  test("smtps:// is TLS from the first byte", async () => {
    expect(implicit.url).toStartWith("smtps://");
    await mailerFor(implicit.url).send(message("d@example.com"));
    expect(implicit.received.find((m) => m.rcptTo.includes("d@example.com"))).toMatchObject({ user: USER, secure: true });
    expect(implicit.auths.every((a) => a.secure)).toBe(true);
  });

  test("?insecure=1 says it out loud: the password goes over plain SMTP", async () => {
    await mailerFor(`${plain.url}?insecure=1`).send(message("e@example.com"));
    expect(plain.received.find((m) => m.rcptTo.includes("e@example.com"))).toMatchObject({ user: USER, secure: false });
    expect(plain.auths).toEqual([{ user: USER, secure: false }]);
  });

  test("?insecure=1 still upgrades when the server offers STARTTLS", async () => {
    await mailerFor(`${starttls.url}?insecure=1`).send(message("f@example.com"));
    expect(starttls.received.find((m) => m.rcptTo.includes("f@example.com"))).toMatchObject({ secure: true });
  });

  test("no credentials in the URL: plain SMTP stays allowed (there is no password to lose)", async () => {
    await mailerFor(open.url).send(message("g@example.com"));
    expect(open.received.find((m) => m.rcptTo.includes("g@example.com"))).toMatchObject({ user: null, secure: false });
    expect(open.auths).toEqual([]);
  });

  test("nodemailer's own URL options are not taken from the URL (a saved ?ignoreTLS=true from an older build)", async () => {
    const err = await failureOf(mailerFor(`${plain.url}?ignoreTLS=true`).send(message("h@example.com")));
    expect(err.reason).toContain("only ?insecure=1");
    expect(plain.received.some((m) => m.rcptTo.includes("h@example.com"))).toBe(false);
  });
});

describe("the smtpUrl setting and the checklist", () => {
  interface World extends ScenarioWorld {
    tokens: Record<"admin", string>;
  }
  const world = (): World => {
    const ctx = testContext();
    return { ctx, api: apiClient(ctx), tokens: { admin: sessionFor(ctx, insertUser(ctx, { role: "admin" })) } };
  };
  const put = (name: string, smtpUrl: string, status: number, stored: boolean): ApiScenario<World> => ({
    name,
    as: "admin",
    method: "PUT",
    path: "/api/settings",
    json: { smtpUrl },
    status,
    ...(status === 400 ? { fields: { smtpUrl: SMTP_URL_OPTIONS } } : {}),
    after: (w) => expect(w.ctx.repos.settings.all()).toEqual(stored ? { smtpUrl } : {}),
  });
  runScenarios(
    [
      put("?insecure=1 is taken", "smtp://u:p@mail.example.com:587?insecure=1", 200, true),
      put("nodemailer options in the query are refused (?ignoreTLS=true)", "smtp://u:p@mail.example.com:587?ignoreTLS=true", 400, false),
      put("tls.rejectUnauthorized=false is refused", "smtps://u:p@mail.example.com?tls.rejectUnauthorized=false", 400, false),
      put("insecure=yes is not the explicit ?insecure=1", "smtp://u:p@mail.example.com?insecure=yes", 400, false),
      put("a second parameter beside insecure=1 is refused", "smtp://u:p@mail.example.com?insecure=1&secure=false", 400, false),
    ],
    { world, done: (w) => w.ctx.close() },
  );

  // The others are amber too until an email went through them (issue 23 item 10), with another sentence.
  for (const [url, insecure] of [
    ["smtp://u:p@mail.example.com:587?insecure=1", true],
    ["smtp://u:p@mail.example.com:587", false],
    ["smtps://u:p@mail.example.com", false],
    ["smtp://relay.example.com:25", false],
  ] as const) {
    test(`the checklist's email line for ${url}: ${insecure ? "the warning about ?insecure=1" : "no such warning"}`, async () => {
      const ctx = testContext({ NEARCAST_SMTP_URL: url });
      try {
        const email = (await ctx.services.checklist.items(OPERATOR)).find((i) => i.id === "email")!;
        expect(email.status).toBe("amber");
        const warning = "SMTP is set with ?insecure=1, so its password may cross the network unencrypted: use smtps:// or a server that offers STARTTLS, then remove ?insecure=1 in Settings.";
        if (insecure) expect(email.detail).toBe(warning);
        else expect(email.detail).toContain("but no email has gone through it yet: send a test email in Settings.");
        expect(email.detail).not.toContain(":p@");
      } finally {
        ctx.close();
      }
    });
  }
});
