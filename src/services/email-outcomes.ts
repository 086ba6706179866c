// "Email: Done" only once an email went through. The mailer's every send (a test email, a reset link, an approval
// notice) is remembered here: the last success and the last failure with its reason, each with the SMTP server it
// went to, so a server changed since then counts as never tried. Internal settings rows ("seen." keys, not settings:
// settings.view() lists only SETTING_KEYS), written by the process that sent, read by the checklist.
import type { Clock } from "../clock.ts";
import { minuteUtc } from "../lib/minute-utc.ts";
import { EmailFailedError, type Mailer } from "../mail/mailer.ts";
import type { Repos } from "../repos/index.ts";
import type { ChecklistItem } from "../schemas/checklist.ts";
import { smtpConnectionOf } from "../schemas/smtp-url.ts";

export const EMAIL_SENT_KEY = "seen.emailSent";
export const EMAIL_FAILED_KEY = "seen.emailFailed";

/** One remembered send: when, to which SMTP server ("host:port"), and why it failed. */
export interface EmailOutcome {
  at: string;
  server: string;
  reason?: string;
}

/** "mail.example.com:587", never the user or password; null for a URL the mailer would not use. */
export function smtpServerOf(smtpUrl: string | null): string | null {
  const c = smtpUrl ? smtpConnectionOf(smtpUrl) : null;
  return c ? `${c.host}:${c.port}` : null;
}

type SettingsRows = Pick<Repos["settings"], "get" | "save">;

function read(rows: SettingsRows, key: string): EmailOutcome | null {
  try {
    const value = rows.get(key);
    return value ? (JSON.parse(value) as EmailOutcome) : null;
  } catch {
    return null;
  }
}

/** The mailer, remembering how each send ended. Not set up (no SMTP URL) is not an outcome: nothing was tried. */
export function recordEmailOutcomes<M extends Mailer>(mailer: M, { repos, clock, smtpUrl }: { repos: Repos; clock: Clock; smtpUrl: () => string | null }): M {
  return {
    ...mailer,
    async send(msg) {
      const server = smtpServerOf(smtpUrl());
      try {
        await mailer.send(msg);
      } catch (err) {
        if (server && err instanceof EmailFailedError) {
          const at = clock.now();
          repos.settings.save(EMAIL_FAILED_KEY, JSON.stringify({ at: at.toISOString(), server, reason: err.reason }), at);
        }
        throw err;
      }
      if (!server) return;
      const at = clock.now();
      repos.settings.save(EMAIL_SENT_KEY, JSON.stringify({ at: at.toISOString(), server }), at);
    },
  };
}

/** The checklist's email line once SMTP is set: green after a send went through to this server (and none failed
 * since), red after the last one failed, amber when nothing has been sent through it yet. */
export function emailOutcomeItem(rows: SettingsRows, smtpUrl: string, mailFrom: string | null): ChecklistItem {
  const title = "Email";
  const server = smtpServerOf(smtpUrl);
  const sent = read(rows, EMAIL_SENT_KEY);
  const failed = read(rows, EMAIL_FAILED_KEY);
  const ok = sent?.server === server ? sent : null;
  const bad = failed?.server === server ? failed : null;
  if (bad && (!ok || bad.at > ok.at)) {
    return { id: "email", status: "red", title, detail: `The last email failed (${minuteUtc(bad.at)}): ${bad.reason}. Fix SMTP in Settings, then send a test email.` };
  }
  if (ok) {
    return { id: "email", status: "green", title, detail: `Done: an email went through ${minuteUtc(ok.at)}${mailFrom ? ` from ${mailFrom}` : ""}, so forgot-password emails a reset link.` };
  }
  return { id: "email", status: "amber", title, detail: `SMTP is set${server ? ` (${server})` : ""}, but no email has gone through it yet: send a test email in Settings.` };
}
