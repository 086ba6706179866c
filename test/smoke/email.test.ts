// The BUILT executable sends email: nodemailer inside `bun build --compile`, against a real SMTP server on loopback.
// Forgot-password over HTTP delivers a working link, the admin's test email arrives, and the CLI's reset link works.
// Run after `npx bun scripts/build.ts`:  npx bun test test/smoke/email.test.ts
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, httpClient, type RunningBinary, startBinary } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

setDefaultTimeout(60_000);

const SOURCE = process.env.NEARCAST_TEST_BINARY ?? BINARY;
const ADMIN = { email: "mail-admin@example.com", password: "battery staple" };
const PUBLIC_URL = "https://deals.example.com";

let home: string;
let bin: string;
let dataDir: string;
let smtp: TestSmtpServer;
let server: RunningBinary;

function run(args: string[]) {
  const proc = Bun.spawnSync([bin, ...args, "--data-dir", dataDir], { cwd: home, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

beforeAll(async () => {
  if (!existsSync(SOURCE)) throw new Error(`${SOURCE} is missing: run \`npx bun scripts/build.ts\` first`);
  home = mkdtempSync(join(tmpdir(), "nearcast-smoke-mail-"));
  bin = join(home, "nearcast");
  copyFileSync(SOURCE, bin);
  chmodSync(bin, 0o755);
  dataDir = join(home, "data");
  mkdirSync(dataDir);
  // STARTTLS with a certificate made now, which the executable trusts through NODE_EXTRA_CA_CERTS (issue 21: the
  // password never crosses plain SMTP).
  smtp = await startSmtpServer({ user: "smoke", password: "smoke p@ss", tls: "starttls" });
  writeFileSync(join(home, "smtp-ca.pem"), smtp.ca!);
  expect(run(["users", "create", "--email", ADMIN.email, "--password", ADMIN.password, "--admin"]).code).toBe(0);
  // Email links are built on the saved public URL only (issue 21, item 1).
  expect(run(["settings", "set", "publicUrl", PUBLIC_URL]).code).toBe(0);
  server = await startBinary({ NEARCAST_SMTP_URL: smtp.url, NODE_EXTRA_CA_CERTS: join(home, "smtp-ca.pem") }, dataDir, { binary: bin, cwd: home });
});

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  rmSync(home, { recursive: true, force: true });
});

test("forgot password emails a link that resets the password", async () => {
  const call = httpClient(server.url);
  const res = await call("POST", "/api/auth/ForgotPassword", { email: ADMIN.email });
  expect(res.status).toBe(200);
  const [mail] = await smtp.waitFor(1);
  expect(mail!.rcptTo).toEqual([ADMIN.email]);
  expect(mail!.subject).toBe("Reset your Nearcast password");
  expect(smtp.auths).toEqual([{ user: "smoke", secure: true }]);
  const link = /(\S+\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(mail!.text)?.[1];
  expect(link).toStartWith(`${PUBLIC_URL}/reset-password?token=`);
  const token = new URL(link!).searchParams.get("token");
  expect((await call("POST", "/api/auth/ResetPassword", { token, newPassword: "via email" })).status).toBe(200);
  expect((await call("POST", "/api/auth/Login", { email: ADMIN.email, password: "via email" })).status).toBe(200);
  expect(server.log()).not.toContain(token!);
});

test("the admin's test email arrives", async () => {
  const call = httpClient(server.url);
  const login = await call("POST", "/api/auth/Login", { email: ADMIN.email, password: "via email" });
  const before = smtp.received.length;
  const res = await call("POST", "/api/settings/TestEmail", {}, login.body.token);
  expect(res.body).toEqual({ message: `Test email sent to ${ADMIN.email}.` });
  expect(smtp.received.slice(before).map((m) => [m.rcptTo, m.subject])).toEqual([[[ADMIN.email], "Nearcast: test email"]]);
});

test("`users reset-password` prints a link that works, and --password sets one", async () => {
  const printed = run(["users", "reset-password", "--email", ADMIN.email]);
  expect(printed.code).toBe(0);
  const link = printed.out.split("\n")[1]!;
  const call = httpClient(server.url);
  expect((await call("POST", "/api/auth/ResetPassword", { token: new URL(link).searchParams.get("token"), newPassword: "via the cli" })).status).toBe(200);
  expect(run(["users", "reset-password", "--email", ADMIN.email, "--password", "set by cli"]).code).toBe(0);
  expect((await call("POST", "/api/auth/Login", { email: ADMIN.email, password: "set by cli" })).status).toBe(200);
});
