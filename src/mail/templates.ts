// The emails Nearcast sends: short plain text (what every mail client shows) and a simple HTML twin.
import type { MailMessage } from "./mailer.ts";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

function page(brandName: string, paragraphs: string[]): string {
  const brand = escapeHtml(brandName);
  return [
    '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#222">',
    `<p style="font-size:18px;font-weight:bold">${brand}</p>`,
    ...paragraphs.map((p) => `<p>${p}</p>`),
    `<p style="color:#666">— ${brand}</p>`,
    "</body></html>",
  ].join("\n");
}

/** The forgot-password email: the link that resets the password, once, within `minutes`. */
export function resetPasswordEmail(to: string, brandName: string, link: string, minutes: number): MailMessage {
  const href = escapeHtml(link);
  return {
    to,
    subject: `Reset your ${brandName} password`,
    text: [
      "Hello,",
      "",
      `Someone asked to reset the password of your ${brandName} account. Open this link to choose a new password.`,
      `It works once, within ${minutes} minutes:`,
      "",
      link,
      "",
      "If you did not ask for this, ignore this email: your password stays as it is.",
      "",
      `— ${brandName}`,
    ].join("\n"),
    html: page(brandName, [
      "Hello,",
      `Someone asked to reset the password of your ${escapeHtml(brandName)} account. The button below lets you choose a new password. It works once, within ${minutes} minutes.`,
      `<a href="${href}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#fff;text-decoration:none;border-radius:6px">Choose a new password</a>`,
      `Or copy this link into your browser:<br><a href="${href}">${href}</a>`,
      "If you did not ask for this, ignore this email: your password stays as it is.",
    ]),
  };
}

/** The Settings screen's "Send test email". */
/** `publicUrl` null: none is set yet, and then reset links cannot be emailed (said so, rather than a guessed address). */
export function testEmail(to: string, brandName: string, publicUrl: string | null): MailMessage {
  const text = publicUrl
    ? `This is a test email from ${brandName} (${publicUrl}). Email works: forgotten passwords can now be reset by email.`
    : `This is a test email from ${brandName}. Email works, but forgotten passwords can be reset by email only once the server's public URL is set (Settings).`;
  return {
    to,
    subject: `${brandName}: test email`,
    text: `Hello,\n\n${text}\n\n— ${brandName}`,
    html: page(brandName, ["Hello,", escapeHtml(text)]),
  };
}

/**
 * Register with an address that already has an account: the answer on the screen is the same as for a new one (so it
 * tells a stranger nothing), and the owner of the address hears about it here, with the way back into the account.
 */
export function registrationAttemptEmail(to: string, brandName: string, loginLink: string, forgotLink: string): MailMessage {
  const login = escapeHtml(loginLink);
  const forgot = escapeHtml(forgotLink);
  return {
    to,
    subject: `Someone tried to register with your ${brandName} address`,
    text: [
      "Hello,",
      "",
      `Someone tried to register a new ${brandName} account with your email address, which already has an account. No new account was made.`,
      "",
      "If it was you, log in:",
      loginLink,
      "",
      "or, if you have forgotten your password, reset it:",
      forgotLink,
      "",
      "If it was not you, ignore this email: your account stays as it is.",
      "",
      `— ${brandName}`,
    ].join("\n"),
    html: page(brandName, [
      "Hello,",
      `Someone tried to register a new ${escapeHtml(brandName)} account with your email address, which already has an account. No new account was made.`,
      `If it was you, <a href="${login}">log in</a>, or, if you have forgotten your password, <a href="${forgot}">reset it</a>.`,
      `Log in: <a href="${login}">${login}</a><br>Reset your password: <a href="${forgot}">${forgot}</a>`,
      "If it was not you, ignore this email: your account stays as it is.",
    ]),
  };
}

/**
 * To each admin when an owner registers: who it is and, when sign-up needs approval, that nothing is texted for them
 * until an admin approves (on the home page or the Users screen). `usersLink` is built on the saved public URL only;
 * null when none is saved, and then the email names the screen instead of linking to it.
 */
export function newOwnerEmail(
  to: string,
  brandName: string,
  owner: { firstName: string; lastName: string; email: string },
  waitsForApproval: boolean,
  usersLink: string | null,
): MailMessage {
  const who = `${owner.firstName} ${owner.lastName} <${owner.email}>`;
  const what = waitsForApproval
    ? `A new shop owner registered on ${brandName} and is waiting for your approval: ${who}. Nothing is texted for this account until you approve it.`
    : `A new shop owner registered on ${brandName}: ${who}.`;
  const where = waitsForApproval
    ? "Approve or refuse the account on your home page or on the Users screen"
    : "You can see every account on the Users screen";
  const link = usersLink ? escapeHtml(usersLink) : null;
  return {
    to,
    subject: waitsForApproval ? `${brandName}: a new owner is waiting for approval` : `${brandName}: a new owner registered`,
    text: ["Hello,", "", what, "", usersLink ? `${where}:\n${usersLink}` : `${where}.`, "", `— ${brandName}`].join("\n"),
    html: page(brandName, ["Hello,", escapeHtml(what), link ? `${escapeHtml(where)}: <a href="${link}">${link}</a>` : `${escapeHtml(where)}.`]),
  };
}
