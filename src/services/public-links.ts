// Links that leave the server for someone else (issue 21): a password-reset email, a registration-attempt email,
// an image or a status callback handed to Twilio. They are built on settings.savedPublicUrl() only, never on a
// request's Host header (which the sender chooses: a forged one turned reset emails into account takeovers). Until a
// public URL is saved, what needs such a link refuses plainly, with these sentences.
import { AppError } from "../errors.ts";
import type { Logger } from "../lib/logger.ts";
import { imageLinkProblem } from "../schemas/twilio-links.ts";
import type { SettingsService } from "./settings.ts";

/** Forgot-password without a public URL: the same answer whether or not the account exists. */
export const EMAIL_LINKS_NEED_PUBLIC_URL = "Email links need the server's public address; ask the person who runs it";
/** `nearcast users reset-password --email` without a public URL. */
export const RESET_LINK_NEEDS_PUBLIC_URL =
  "No public URL is set, so a reset link would only open on this machine: set one with `nearcast settings set publicUrl https://...` (or NEARCAST_PUBLIC_URL) and run this again, or set a new password for the account instead (see `nearcast users reset-password --help`)";
/** A broadcast or test with an image, through real Twilio, without a public URL (src/schemas/twilio-links.ts). */
export const IMAGE_NEEDS_PUBLIC_URL = imageLinkProblem(null, "https://api.twilio.com")!;

/** 400 public_url_not_set: nothing was made or sent, because the link would have had no address to live on. */
export class PublicUrlNotSetError extends AppError {
  constructor(message: string, fields?: Record<string, string>, code: "public_url_not_set" | "public_url_private" = "public_url_not_set") {
    super(400, code, message, fields);
  }
}

/** The saved public URL, or the refusal `message` (400, nothing done) when there is none. */
export function requirePublicUrl(settings: Pick<SettingsService, "savedPublicUrl">, message: string): string {
  const base = settings.savedPublicUrl();
  if (base === null) throw new PublicUrlNotSetError(message);
  return base;
}

/**
 * Refuses an image for a real Twilio send while the public URL is missing or private (src/schemas/twilio-links.ts):
 * Twilio fetches media by URL, and a private address is nobody's but this network's. The sandbox fetches nothing, so
 * there an image is fine. `field` names the form field the image came in (Image, ImagePath); the answer names
 * publicUrl too, the setting that fixes it.
 */
export function refuseImageWithoutPublicUrl(settings: Pick<SettingsService, "messaging">, field: string): void {
  const { twilio, twilioApiBase, publicUrl } = settings.messaging();
  const problem = twilio === null ? null : imageLinkProblem(publicUrl, twilioApiBase);
  if (problem) throw new PublicUrlNotSetError(problem, { [field]: problem, publicUrl: problem }, publicUrl === null ? "public_url_not_set" : "public_url_private");
}

/** The registration-attempt email that was not sent for want of a public URL: logged once per process (a flood of
 * registrations must not flood the log), without the address. */
export const ATTEMPT_EMAIL_NEEDS_PUBLIC_URL =
  "registration-attempt emails are not sent: no public URL is set, so their links would have no address (set one in Settings or NEARCAST_PUBLIC_URL)";

/** A function that writes `line` as a warning the first time it is called, and then never again. */
export function warnOnce(logger: Logger, line: string): () => void {
  let done = false;
  return () => {
    if (!done) logger.warn(line);
    done = true;
  };
}
