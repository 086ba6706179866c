// What went wrong with an SMTP send, in a few words an admin can act on, and never with the SMTP password: the text
// goes into API answers and the log, and a server's reply or a library's message could quote the URL it was given.

/** "host:port" of an SMTP URL (the port nodemailer uses when none is given). */
export function smtpServerOf(smtpUrl: string): string {
  try {
    const u = new URL(smtpUrl);
    return `${u.hostname}:${u.port || (u.protocol === "smtps:" ? "465" : "587")}`;
  } catch {
    return "the SMTP server";
  }
}

/** The SMTP URL's password in every spelling it may appear in (as written in the URL, and decoded). */
function passwordsOf(smtpUrl: string): string[] {
  try {
    const raw = new URL(smtpUrl).password;
    if (!raw) return [];
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // not valid percent-encoding: the raw form is the only one
    }
    return [...new Set([smtpUrl, raw, decoded, encodeURIComponent(decoded)])].sort((a, b) => b.length - a.length);
  } catch {
    return [smtpUrl];
  }
}

/** `text` with the SMTP URL and its password blotted out. */
export function redactSecrets(text: string, smtpUrl: string | null): string {
  if (!smtpUrl) return text;
  let out = text;
  for (const secret of passwordsOf(smtpUrl)) if (secret) out = out.split(secret).join("***");
  return out;
}

/** An SMTP server's reply, on one short line. */
function replyOf(response: unknown): string {
  if (typeof response !== "string" || !response.trim()) return "";
  const line = response.replace(/\s+/g, " ").trim();
  return ` (the server said: ${line.length > 160 ? `${line.slice(0, 159)}…` : line})`;
}

/** A server without STARTTLS, asked for a password over smtp:// (src/schemas/smtp-url.ts). */
export const NO_STARTTLS = (where: string) =>
  `${where} does not offer STARTTLS, so the password would travel unencrypted and was not sent: use smtps:// if the server has it, or add ?insecure=1 to the SMTP URL to allow this`;

/** Why a send failed, as a short clause ("nothing is listening on mail.example.com:587"). Not yet redacted. */
export function describeSmtpFailure(err: unknown, smtpUrl: string, timeoutMs: number): string {
  const e = (err ?? {}) as { code?: string; response?: string; message?: string; name?: string };
  const where = smtpServerOf(smtpUrl);
  const message = String(e.message ?? err).split("\n")[0]!.slice(0, 200);
  const seconds = Math.round(timeoutMs / 1000);
  if (e.name === "TimeoutError" || e.name === "AbortError" || e.code === "ETIMEDOUT" || e.code === "EABORT" || /timeout/i.test(message)) {
    return `${where} did not answer within ${seconds} seconds`;
  }
  if (/required STARTTLS/i.test(message)) return NO_STARTTLS(where);
  if (/ECONNREFUSED/.test(message)) return `nothing is listening on ${where} (connection refused)`;
  if (e.code === "EDNS" || /ENOTFOUND|EAI_AGAIN/.test(message)) return `the SMTP host ${where.replace(/:\d+$/, "")} was not found`;
  switch (e.code) {
    case "EAUTH":
      return `${where} refused the user name or password${replyOf(e.response)}`;
    case "ENOAUTH":
      return `${where} asks for a user name and password: put them in the SMTP URL`;
    case "ETLS":
      // The server answered STARTTLS with an error (it has none): nothing was sent, the password included.
      if (/upgrading connection with STARTTLS/i.test(message)) return NO_STARTTLS(where);
      return `the secure connection to ${where} failed (${message}); smtps:// is for port 465, smtp:// for 587 or 25`;
    case "EENVELOPE":
      return `${where} refused the sender or the recipient${replyOf(e.response)}`;
    case "EMESSAGE":
      return `${where} refused the message${replyOf(e.response)}`;
    case "ECONNECTION":
    case "ESOCKET":
      return `the connection to ${where} failed (${message})`;
    default:
      return `${where}: ${message}`;
  }
}
