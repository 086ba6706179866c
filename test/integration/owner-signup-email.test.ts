// Issue 21, item 2: the admin is told of a new sign-up by email when email is set up, read at a real SMTP sink on
// loopback: the owner's name and address, that nothing is texted until approved, the Users link on the saved public
// URL only (never the request's Host), and no email for an address that already had an account.
// Not the scenario runner: the email is read at a real SMTP sink after the registration, waited for.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { OPERATOR } from "../../src/services/principal.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { insertUser } from "../helpers/factories.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

// argon2 is deliberately slow on a busy two-core box.
setDefaultTimeout(30_000);

const ADMIN = "boss@example.com";
const OWNER = { firstName: "Rosa", lastName: "Baker", email: "rosa@example.com", password: "correct horse" };

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer({ user: "mailer@shop.example", password: "S3cr3t-pass", tls: "starttls" });
});
afterAll(() => smtp.close());

function world(signup: string, publicUrl: string | null) {
  const ctx = testContext({ NEARCAST_OWNER_SIGNUP: signup, NEARCAST_SMTP_URL: smtp.url }, {}, { mailTls: { ca: smtp.ca! } });
  if (publicUrl) ctx.services.settings.update(OPERATOR, { publicUrl });
  insertUser(ctx, { role: "admin", email: ADMIN });
  return { ctx, api: apiClient(ctx) };
}

const mailsToAdmin = async (w: ReturnType<typeof world>) => {
  await w.ctx.services.ownerApproval.idle();
  await w.ctx.services.auth.idle();
  return smtp.received.filter((m) => m.rcptTo.includes(ADMIN));
};

test("a new owner waiting for approval: the admin gets one email with the Users link on the saved public URL", async () => {
  smtp.received.length = 0;
  const w = world("approval", "https://deals.example.com");
  try {
    const res = await w.api.post("/api/auth/Register", OWNER, { headers: { host: "evil.example" } });
    expect(res.status).toBe(201);
    const mails = await mailsToAdmin(w);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe("Nearcast: a new owner is waiting for approval");
    for (const text of ["Rosa Baker <rosa@example.com>", "Nothing is texted for this account until you approve it.", "https://deals.example.com/users"]) expect(mail.text).toContain(text);
    expect(mail.html).toContain('href="https://deals.example.com/users"');
    expect(`${mail.text}${mail.html}`).not.toContain("evil.example");
    // Registering the same address again makes no account and tells the admin nothing.
    expect((await w.api.post("/api/auth/Register", OWNER)).status).toBe(201);
    expect(await mailsToAdmin(w)).toHaveLength(1);
  } finally {
    w.ctx.close();
  }
});

test("without a saved public URL the email names the screen and carries no link", async () => {
  smtp.received.length = 0;
  const w = world("approval", null);
  try {
    expect((await w.api.post("/api/auth/Register", OWNER, { headers: { host: "evil.example" } })).status).toBe(201);
    const [mail, ...more] = await mailsToAdmin(w);
    expect(more).toEqual([]);
    expect(mail!.text).toContain("on your home page or on the Users screen.");
    expect(mail!.text).not.toContain("http");
    expect(mail!.html).not.toContain("href");
  } finally {
    w.ctx.close();
  }
});

test("open sign-up: the admin hears of the new owner too, without the approval sentence", async () => {
  smtp.received.length = 0;
  const w = world("open", "https://deals.example.com");
  try {
    expect((await w.api.post("/api/auth/Register", OWNER)).status).toBe(201);
    const [mail] = await mailsToAdmin(w);
    expect(mail!.subject).toBe("Nearcast: a new owner registered");
    expect(mail!.text).not.toContain("approve");
  } finally {
    w.ctx.close();
  }
});
