// The mail worker's wording: why a send failed, in words an admin can act on, never with the SMTP password; and the
// reset email's content.
import { describe, expect, test } from "bun:test";
import { describeSmtpFailure, redactSecrets, smtpServerOf } from "../../src/mail/redact.ts";
import { registrationAttemptEmail, resetPasswordEmail, testEmail } from "../../src/mail/templates.ts";

const PASSWORD = "p@ss/w0rd é";
const URL_WITH_PASSWORD = `smtp://user%40shop.com:${encodeURIComponent(PASSWORD)}@mail.shop.com:587`;

const smtpError = (code: string, message: string, response?: string) => Object.assign(new Error(message), { code, response });

describe("redactSecrets", () => {
  test("blots out the password as written in the URL and decoded, and the whole URL", () => {
    const text = `failed for ${URL_WITH_PASSWORD}; pass=${PASSWORD}; encoded=${encodeURIComponent(PASSWORD)}`;
    const out = redactSecrets(text, URL_WITH_PASSWORD);
    expect(out).toBe("failed for ***; pass=***; encoded=***");
  });

  test("leaves text alone without an SMTP URL or a password", () => {
    expect(redactSecrets("nothing secret", null)).toBe("nothing secret");
    expect(redactSecrets("mail.shop.com said no", "smtp://mail.shop.com:25")).toBe("mail.shop.com said no");
  });
});

describe("describeSmtpFailure", () => {
  const cases: [string, unknown, string][] = [
    ["wrong login", smtpError("EAUTH", "Invalid login: 535 5.7.8 Bad credentials", "535 5.7.8 Bad credentials"), "mail.shop.com:587 refused the user name or password (the server said: 535 5.7.8 Bad credentials)"],
    ["refused connection", smtpError("ESOCKET", "connect ECONNREFUSED 10.0.0.1:587"), "nothing is listening on mail.shop.com:587 (connection refused)"],
    ["unknown host", smtpError("EDNS", "getaddrinfo ENOTFOUND mail.shop.com"), "the SMTP host mail.shop.com was not found"],
    ["greeting timeout", smtpError("ETIMEDOUT", "Greeting never received"), "mail.shop.com:587 did not answer within 10 seconds"],
    ["the send's deadline", Object.assign(new Error("The operation timed out."), { name: "TimeoutError" }), "mail.shop.com:587 did not answer within 10 seconds"],
    ["recipient refused", smtpError("EENVELOPE", "Recipient command failed", "550 5.1.1 No such user"), "mail.shop.com:587 refused the sender or the recipient (the server said: 550 5.1.1 No such user)"],
    ["no credentials", smtpError("ENOAUTH", "Missing credentials"), "mail.shop.com:587 asks for a user name and password: put them in the SMTP URL"],
  ];
  for (const [name, err, reason] of cases) test(name, () => expect(describeSmtpFailure(err, URL_WITH_PASSWORD, 10_000)).toBe(reason));

  test("the server's default port when the URL has none", () => {
    expect(smtpServerOf("smtps://u:p@mail.shop.com")).toBe("mail.shop.com:465");
    expect(smtpServerOf("smtp://mail.shop.com")).toBe("mail.shop.com:587");
  });
});

describe("templates", () => {
  test("the reset email names the brand, the link and how long it works, in text and HTML (escaped)", () => {
    const link = "https://shop.example.com/reset-password?token=abc_DEF-123";
    const mail = resetPasswordEmail("ana@shop.com", "Ana & <Co>", link, 30);
    expect(mail.to).toBe("ana@shop.com");
    expect(mail.subject).toBe("Reset your Ana & <Co> password");
    expect(mail.text).toContain(`\n${link}\n`);
    expect(mail.text).toContain("within 30 minutes");
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain("Ana &amp; &lt;Co&gt;");
    expect(mail.html).not.toContain("<Co>");
  });

  test("the registration-attempt email: what happened, and the login and forgot-password links (HTML escaped)", () => {
    const mail = registrationAttemptEmail("ana@shop.com", "Ana & <Co>", "https://shop.example.com/login", "https://shop.example.com/forgot-password");
    expect(mail.to).toBe("ana@shop.com");
    expect(mail.subject).toBe("Someone tried to register with your Ana & <Co> address");
    expect(mail.text).toContain("which already has an account. No new account was made.");
    expect(mail.text).toContain("If it was you, log in:\nhttps://shop.example.com/login\n");
    expect(mail.text).toContain("reset it:\nhttps://shop.example.com/forgot-password\n");
    expect(mail.html).toContain('href="https://shop.example.com/login"');
    expect(mail.html).toContain('href="https://shop.example.com/forgot-password"');
    expect(mail.html).toContain("Ana &amp; &lt;Co&gt;");
    expect(mail.html).not.toContain("<Co>");
  });

  test("the test email names the brand and the public URL", () => {
    const mail = testEmail("boss@shop.com", "Bakery", "https://shop.example.com");
    expect(mail.subject).toBe("Bakery: test email");
    expect(mail.text).toContain("This is a test email from Bakery (https://shop.example.com).");
  });
});
