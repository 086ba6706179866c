// The mail worker: sends one email through the admin's SMTP server. Like src/dispatch, it declares what it needs from
// the rest of the app (listmonk's messenger does the same): a way to read the mail settings at send time, so a change
// on the Settings screen or with `nearcast settings set` is used by the next email, without a restart. The app
// adapts the settings service to it (src/services/index.ts). Only this folder imports nodemailer, at the first email:
// it is the largest package the server holds (about 650 KB of source) and most starts, and every CLI command, send none.
import type NodemailerModule from "nodemailer";
import { AppError } from "../errors.ts";
import { importSeparately } from "../lib/import-separately.ts";
import { describeSmtpFailure, redactSecrets } from "./redact.ts";
import { smtpConnectionOf } from "../schemas/smtp-url.ts";

/** One email: plain text always (every client reads it), HTML optionally. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message; rejects with EmailNotConfiguredError or EmailFailedError. */
  send(msg: MailMessage): Promise<void>;
  /** Whether email is set up (an SMTP URL is set), so callers can say so before doing any work. */
  configured(): boolean;
}

/** What the mailer reads from the settings, each time it sends. */
export interface MailSettings {
  /** smtp:// or smtps:// with user and password (and ?insecure=1 at most); null = email is not set up. */
  smtpUrl: string | null;
  /** The From header; null = "<brandName>" <contactEmail>. */
  mailFrom: string | null;
  brandName: string;
  contactEmail: string;
}

export const EMAIL_NOT_CONFIGURED = "Email is not set up on this server.";

/** No SMTP URL is set. Callers that can say more (what the user should do instead) pass their own sentence. */
export class EmailNotConfiguredError extends AppError {
  constructor(message = EMAIL_NOT_CONFIGURED) {
    super(400, "email_not_configured", message);
  }
}

/** The SMTP server refused the message or could not be reached; the message says why, never with the password. */
export class EmailFailedError extends AppError {
  constructor(readonly reason: string) {
    super(400, "email_failed", `The email could not be sent: ${reason}.`);
  }
}

/** Every SMTP step (DNS, connect, greeting, each reply) and the whole send give up after this long. */
export const SMTP_TIMEOUT_MS = 10_000;

export interface SmtpMailerOptions {
  settings: () => MailSettings;
  timeoutMs?: number;
  /** Extra certificate authorities to trust (tests: the loopback server's own; operators use NODE_EXTRA_CA_CERTS). */
  tls?: { ca: string };
}

/** A saved URL an older build took (with options in its query) that this one refuses to guess at. */
export const UNUSABLE_SMTP_URL = "the SMTP URL in the settings has options this server does not take (only ?insecure=1): set it again in Settings";

// nodemailer (650 KB of source) is loaded at the first email, from outside the main bundle (src/lib/import-separately.ts).
let nodemailerModule: Promise<typeof NodemailerModule> | undefined;

/** The From header when none is set: the brand's name and the contact address (nodemailer quotes the name). */
function fromOf(s: MailSettings): string | { name: string; address: string } {
  return s.mailFrom ?? { name: s.brandName, address: s.contactEmail };
}

export function createSmtpMailer({ settings, timeoutMs = SMTP_TIMEOUT_MS, tls }: SmtpMailerOptions): Mailer & { idle(): Promise<void> } {
  // Sends still under way; tests wait for them (idle()) instead of sleeping, and the background sends of
  // forgot-password are tracked here rather than left floating.
  const inFlight = new Set<Promise<unknown>>();

  async function sendNow(msg: MailMessage): Promise<void> {
    const s = settings();
    if (!s.smtpUrl) throw new EmailNotConfiguredError();
    const smtpUrl = s.smtpUrl;
    // Built from the URL here, not handed to nodemailer as `url`: nodemailer would take any query parameter as an
    // option (ignoreTLS=true...), and the rule that a password waits for TLS is ours (src/schemas/smtp-url.ts).
    const c = smtpConnectionOf(smtpUrl);
    if (!c) throw new EmailFailedError(UNUSABLE_SMTP_URL);
    // A transport per email: one connection per message either way (no pool), and each send sees the settings now.
    const nodemailer = await (nodemailerModule ??= importSeparately("nodemailer").then((m) => m.default));
    const transport = nodemailer.createTransport({
      host: c.host,
      port: c.port,
      secure: c.secure,
      requireTLS: c.requireTLS,
      auth: c.auth,
      ...(tls ? { tls } : {}),
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      dnsTimeout: timeoutMs,
      // We never attach files or fetch URLs into a message; refusing them closes that door for good.
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    try {
      await transport.sendMail({ from: fromOf(s), to: msg.to, subject: msg.subject, text: msg.text, html: msg.html, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new EmailFailedError(redactSecrets(describeSmtpFailure(err, smtpUrl, timeoutMs), smtpUrl));
    } finally {
      transport.close();
    }
  }

  return {
    send(msg: MailMessage): Promise<void> {
      const p = sendNow(msg);
      const tracked = p.catch(() => {}).finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      return p;
    },
    /** Whether an SMTP URL is set (from the environment or the database). */
    configured(): boolean {
      return !!settings().smtpUrl;
    },
    /** Resolves when every send started so far has finished, however it ended. */
    async idle(): Promise<void> {
      while (inFlight.size) await Promise.all(inFlight);
    },
  };
}

export type SmtpMailer = ReturnType<typeof createSmtpMailer>;
