// The admin's settings: one list of keys, each with its environment variable and its check. The API
// (PUT /api/settings), the CLI (`nearcast settings set`), the Settings screen and the environment (src/config.ts)
// all validate through these schemas, so a value that is refused in one place is refused in every place.
import * as v from "valibot";
import { NOT_AN_OBJECT } from "./auth.ts";
import type { CheckResult, FieldErrors } from "./check.ts";
import { isOneLine } from "./text.ts";
import { smtpConnectionOf } from "./smtp-url.ts";
import { parseQuietHours } from "../lib/quiet-hours.ts";
import { OWNER_SIGNUP_MODES, type OwnerSignup } from "./owner-approval.ts";
import { SENDER_REGISTRATION_STATES } from "./registration.ts";
import { DEFAULT_BRAND } from "./brand.ts";

export const SETTING_KEYS = [
  "publicUrl",
  "brandName",
  "contactEmail",
  "twilioAccountSid",
  "twilioAuthToken",
  "twilioFrom",
  "twilioMessagingServiceSid",
  "twilioWhatsAppFrom",
  "sendRate",
  "smtpUrl",
  "mailFrom",
  "uploadQuotaMb",
  "quietHours",
  "maxPerDay",
  "allowedCountries",
  "confirmationsPerHour",
  "ownerTextsPerHour",
  "pricePerSegment",
  "whatsappConfirmationTemplate",
  "ownerSignup",
  "keywordReplies",
  "senderRegistration",
  "replyRetentionDays",
  "replyEmails",
] as const;

export type SettingKey = (typeof SETTING_KEYS)[number];

/** The environment variable that overrides each setting. */
export const SETTING_ENV: Record<SettingKey, string> = {
  publicUrl: "NEARCAST_PUBLIC_URL",
  brandName: "NEARCAST_BRAND_NAME",
  contactEmail: "NEARCAST_CONTACT_EMAIL",
  twilioAccountSid: "TWILIO_ACCOUNT_SID",
  twilioAuthToken: "TWILIO_AUTH_TOKEN",
  twilioFrom: "TWILIO_FROM",
  twilioMessagingServiceSid: "TWILIO_MESSAGING_SERVICE_SID",
  twilioWhatsAppFrom: "TWILIO_WHATSAPP_FROM",
  sendRate: "NEARCAST_SEND_RATE",
  smtpUrl: "NEARCAST_SMTP_URL",
  mailFrom: "NEARCAST_MAIL_FROM",
  uploadQuotaMb: "NEARCAST_UPLOAD_QUOTA_MB",
  quietHours: "NEARCAST_QUIET_HOURS",
  maxPerDay: "NEARCAST_MAX_PER_DAY",
  allowedCountries: "NEARCAST_ALLOWED_COUNTRIES",
  confirmationsPerHour: "NEARCAST_CONFIRMATIONS_PER_HOUR",
  ownerTextsPerHour: "NEARCAST_OWNER_TEXTS_PER_HOUR",
  pricePerSegment: "NEARCAST_PRICE_PER_SEGMENT",
  whatsappConfirmationTemplate: "NEARCAST_WHATSAPP_CONFIRMATION_TEMPLATE",
  ownerSignup: "NEARCAST_OWNER_SIGNUP",
  keywordReplies: "NEARCAST_KEYWORD_REPLIES",
  senderRegistration: "NEARCAST_SENDER_REGISTRATION",
  replyRetentionDays: "NEARCAST_REPLY_RETENTION_DAYS",
  replyEmails: "NEARCAST_REPLY_EMAILS",
};

/** Write-only settings: stored and used, never returned, logged or printed (the API says only whether one is set). */
export const SECRET_SETTINGS: ReadonlySet<SettingKey> = new Set(["twilioAuthToken", "smtpUrl"]);

/** What an unset setting means. */
export const SETTING_DEFAULTS = {
  ...DEFAULT_BRAND,
  sendRate: "1",
  uploadQuotaMb: "200",
  quietHours: "20:00-08:00",
  maxPerDay: "3",
  // Texts nobody broadcast (confirmations, welcome texts, test sends, verification codes) per rolling hour: for the
  // whole install (the key keeps its pre-issue-21 name) and for each owner.
  confirmationsPerHour: "200",
  ownerTextsPerHour: "50",
  // Twilio's US list price for one SMS segment (USD), for the estimate before a broadcast; set your own.
  pricePerSegment: "0.0083",
  // New and upgraded installs alike: an owner who registers waits for the admin before anything is texted for them.
  ownerSignup: "approval",
  // Twilio's Advanced Opt-Out answers STOP, START and HELP itself; Nearcast answers only where it does not.
  keywordReplies: "twilio",
  // Where the US sender stands with the carriers (toll-free verification or 10DLC); the admin records it.
  senderRegistration: "unregistered",
  // The inbox (issue 24): what customers text back is kept this many days (`nearcast prune` clears older bodies and
  // media), and each business's owner gets at most one email an hour about new replies.
  replyRetentionDays: "180",
  replyEmails: "on",
} as const satisfies Partial<Record<SettingKey, string>>;

/** Who answers the STOP, START and HELP keywords (the keywordReplies setting). */
export const KEYWORD_REPLIERS = ["twilio", "nearcast"] as const;
export type KeywordReplier = (typeof KEYWORD_REPLIERS)[number];

export const SEND_RATE_MIN = 0.01;
export const SEND_RATE_MAX = 10000;
export const BRAND_NAME_MAX = 60;
/** Each owner's room for images, in MB (1 MB = 1,048,576 bytes); from 1 MB to 1 TB. */
export const UPLOAD_QUOTA_MIN_MB = 1;
export const UPLOAD_QUOTA_MAX_MB = 1_048_576;

const E164 = /^\+[1-9]\d{6,14}$/;

// Checked before trimming: a trailing CR/LF is refused like one inside, never silently cut off.
const textValue = (label: string) =>
  v.pipe(
    v.string(`${label} must be text`),
    v.check(isOneLine, `${label} must be one line, without line breaks or other control characters`),
    v.trim(),
    v.nonEmpty(`${label} must not be empty`),
  );

function isHttpUrl(s: string): boolean {
  try {
    const url = new URL(s);
    return (url.protocol === "http:" || url.protocol === "https:") && !!url.hostname && !url.search && !url.hash && !url.username;
  } catch {
    return false;
  }
}

function isSmtpUrl(s: string): boolean {
  try {
    const url = new URL(s);
    return (url.protocol === "smtp:" || url.protocol === "smtps:") && !!url.hostname && (url.pathname === "" || url.pathname === "/");
  } catch {
    return false;
  }
}

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

export const SMTP_URL_OPTIONS = "SMTP URL takes one option only, ?insecure=1 (send the password even where the server offers no TLS)";

/** Each setting's check: text in, the value to store out. */
export const SETTING_SCHEMAS = {
  publicUrl: v.pipe(
    textValue("Public URL"),
    v.check(isHttpUrl, "Public URL must be an http:// or https:// address, without a query or fragment"),
    v.transform((s) => s.replace(/\/+$/, "")),
  ),
  brandName: v.pipe(textValue("Brand name"), v.maxLength(BRAND_NAME_MAX, `Brand name cannot exceed ${BRAND_NAME_MAX} characters`)),
  contactEmail: v.pipe(textValue("Contact email"), v.maxLength(254, "Contact email must be an email address"), v.regex(EMAIL, "Contact email must be an email address")),
  twilioAccountSid: v.pipe(textValue("Twilio account SID"), v.regex(/^AC[0-9a-fA-F]{32}$/, "Twilio account SID must be AC followed by 32 hexadecimal characters")),
  twilioAuthToken: v.pipe(textValue("Twilio auth token"), v.regex(/^[\x21-\x7e]{16,128}$/, "Twilio auth token must be 16 to 128 characters without spaces")),
  twilioFrom: v.pipe(textValue("SMS sender"), v.regex(E164, "SMS sender must be a phone number in international format, e.g. +15551234567")),
  twilioMessagingServiceSid: v.pipe(
    textValue("Messaging Service SID"),
    v.regex(/^MG[0-9a-fA-F]{32}$/, "Messaging Service SID must be MG followed by 32 hexadecimal characters"),
  ),
  twilioWhatsAppFrom: v.pipe(
    textValue("WhatsApp sender"),
    v.transform((s) => s.replace(/^whatsapp:/i, "")),
    v.regex(E164, "WhatsApp sender must be a phone number in international format, e.g. +15551234567"),
  ),
  sendRate: v.pipe(
    textValue("Send rate"),
    v.check((s) => /^\d+(\.\d+)?$|^\.\d+$/.test(s) && Number(s) >= SEND_RATE_MIN && Number(s) <= SEND_RATE_MAX, `Send rate must be a number from ${SEND_RATE_MIN} to ${SEND_RATE_MAX} (messages per second)`),
    v.transform((s) => String(Number(s))),
  ),
  uploadQuotaMb: v.pipe(
    textValue("Upload quota"),
    v.check(
      (s) => /^\d{1,7}$/.test(s) && Number(s) >= UPLOAD_QUOTA_MIN_MB && Number(s) <= UPLOAD_QUOTA_MAX_MB,
      `Upload quota must be a whole number of MB from ${UPLOAD_QUOTA_MIN_MB} to ${UPLOAD_QUOTA_MAX_MB}`,
    ),
    v.transform((s) => String(Number(s))),
  ),
  // The span when marketing texts wait (recipient's local time), e.g. 20:00-08:00; "off" sends at any hour.
  quietHours: v.pipe(
    textValue("Quiet hours"),
    v.check((s) => parseQuietHours(s) !== undefined, "Quiet hours must be HH:MM-HH:MM (e.g. 20:00-08:00, two different times) or off"),
    v.transform((s) => s.trim().toLowerCase()),
  ),
  maxPerDay: v.pipe(
    textValue("Messages per day"),
    v.check((s) => /^\d{1,4}$/.test(s), "Messages per day must be a whole number from 0 (no cap) to 9999"),
    v.transform((s) => String(Number(s))),
  ),
  // Countries whose numbers the public subscribe page accepts: ISO codes, e.g. "US,CA", or "*" for any. Unset: the
  // default country (NEARCAST_DEFAULT_COUNTRY).
  allowedCountries: v.pipe(
    textValue("Allowed countries"),
    v.transform((s) => s.toUpperCase().split(/\s*,\s*/).filter(Boolean).join(",")),
    v.check((s) => s === "*" || /^[A-Z]{2}(,[A-Z]{2})*$/.test(s), "Allowed countries must be two-letter country codes separated by commas (e.g. US,CA), or * for any"),
  ),
  confirmationsPerHour: v.pipe(
    textValue("Confirmations per hour"),
    v.check((s) => /^\d{1,6}$/.test(s) && Number(s) >= 1, "Confirmations per hour must be a whole number from 1 to 999999"),
    v.transform((s) => String(Number(s))),
  ),
  ownerTextsPerHour: v.pipe(
    textValue("Texts per owner per hour"),
    v.check((s) => /^\d{1,6}$/.test(s) && Number(s) >= 1, "Texts per owner per hour must be a whole number from 1 to 999999"),
    v.transform((s) => String(Number(s))),
  ),
  pricePerSegment: v.pipe(
    textValue("Price per segment"),
    v.check((s) => /^\d{1,3}(\.\d{1,6})?$/.test(s), "Price per segment must be an amount like 0.0083 (US dollars, up to 6 decimals)"),
    v.transform((s) => String(Number(s))),
  ),
  whatsappConfirmationTemplate: v.pipe(
    textValue("WhatsApp confirmation template"),
    v.regex(/^HX[0-9a-fA-F]{32}$/, "WhatsApp confirmation template must be a Content SID: HX followed by 32 hexadecimal characters"),
  ),
  // Who may become an owner: "approval" (register, then wait for the admin), "open" (register and send), "closed"
  // (only the admin creates owners).
  ownerSignup: v.pipe(
    textValue("Owner sign-up"),
    v.transform((s) => s.toLowerCase()),
    v.check((s) => (OWNER_SIGNUP_MODES as readonly string[]).includes(s), "Owner sign-up must be approval, open or closed"),
  ),
  // Who answers STOP, START and HELP: "twilio" (its Advanced Opt-Out; Nearcast records the keyword and stays quiet
  // when Twilio says it handled it) or "nearcast" (Nearcast's own replies, always).
  keywordReplies: v.pipe(
    textValue("Keyword replies"),
    v.transform((s) => s.toLowerCase()),
    v.check((s) => (KEYWORD_REPLIERS as readonly string[]).includes(s), "Keyword replies must be twilio or nearcast"),
  ),
  senderRegistration: v.pipe(
    textValue("Sender registration"),
    v.transform((s) => s.toLowerCase()),
    v.check((s) => (SENDER_REGISTRATION_STATES as readonly string[]).includes(s), "Sender registration must be unregistered, pending or approved"),
  ),
  replyRetentionDays: v.pipe(
    textValue("Reply retention"),
    v.check((s) => /^\d{1,5}$/.test(s) && Number(s) >= 1 && Number(s) <= 36500, "Reply retention must be a whole number of days from 1 to 36500"),
    v.transform((s) => String(Number(s))),
  ),
  replyEmails: v.pipe(
    textValue("Reply emails"),
    v.transform((s) => s.toLowerCase()),
    v.check((s) => s === "on" || s === "off", "Reply emails must be on or off"),
  ),
  smtpUrl: v.pipe(
    textValue("SMTP URL"),
    v.check(isSmtpUrl, "SMTP URL must look like smtp://user:password@host:587 or smtps://user:password@host:465"),
    v.check((s) => smtpConnectionOf(s) !== null, SMTP_URL_OPTIONS),
  ),
  mailFrom: v.pipe(
    textValue("From address"),
    v.check((s) => EMAIL.test(s) || /^[^<>@]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>$/.test(s), "From address must be an email address, e.g. Bakery <news@example.com>"),
  ),
} satisfies Record<SettingKey, v.GenericSchema<string, string>>;

export type SettingsUpdate = Partial<Record<SettingKey, string | null>>;

export function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as readonly string[]).includes(key);
}

/** PUT /api/settings and `settings set`: any of the keys; text saves it, null or "" removes the saved value. An
 * unknown key or a bad value is an error named by its key, and then nothing of the update is taken. */
export function checkSettingsUpdate(input: unknown): CheckResult<SettingsUpdate> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return { ok: false, errors: { _: NOT_AN_OBJECT }, message: NOT_AN_OBJECT };
  const errors: FieldErrors = {};
  const value: SettingsUpdate = {};
  for (const [key, raw] of Object.entries(input)) {
    if (!isSettingKey(key)) errors[key] = `Unknown setting ${JSON.stringify(key.slice(0, 60))}`;
    else if (raw === null || raw === "") value[key] = null;
    else if (typeof raw === "number" && (key === "sendRate" || key === "uploadQuotaMb" || key === "maxPerDay" || key === "confirmationsPerHour" || key === "ownerTextsPerHour" || key === "pricePerSegment" || key === "replyRetentionDays")) Object.assign(value, checkOne(key, String(raw), errors));
    else Object.assign(value, checkOne(key, raw, errors));
  }
  const first = Object.values(errors)[0];
  return first === undefined ? { ok: true, value } : { ok: false, errors, message: first };
}

function checkOne(key: SettingKey, raw: unknown, errors: FieldErrors): SettingsUpdate {
  const result = v.safeParse(SETTING_SCHEMAS[key], raw);
  if (result.success) return { [key]: result.output };
  errors[key] = result.issues[0].message;
  return {};
}

/** GET /api/site: what every page may know about this server, logged in or not. */
export interface SiteInfo {
  brandName: string;
  contactEmail: string;
  /** The base of the links this server gives out (for the page that asked): the public URL, or the origin the
   * request came in on when none is set. The QR code encodes exactly this base. */
  publicUrl: string;
  /** Where `publicUrl` comes from: NEARCAST_PUBLIC_URL, the saved setting, or this request's origin. */
  publicUrlSource: "env" | "saved" | "request";
  /** True when `publicUrl` is one phones outside this network cannot open (localhost, a private address). */
  publicUrlPrivate: boolean;
  /** No admin account exists yet: the UI opens the first-run setup screen. */
  setupNeeded: boolean;
  /** How owners join (the ownerSignup setting): the Register page says so when it is "closed". */
  ownerSignup: OwnerSignup;
  /** The SMS sender number (E.164) people text a business's join keyword to; null without one (the sandbox). */
  smsNumber: string | null;
}

/** One setting as GET /api/settings shows it. */
export interface SettingView {
  /** The value in use; null for a secret (see `set`) and for a setting that is unset with no default. */
  value: string | null;
  /** Where the value comes from. */
  source: "env" | "saved" | "default" | "unset";
  /** The environment variable that overrides it; when `source` is "env" the screen shows the setting locked. */
  env: string;
  secret: boolean;
  /** Secrets only: whether a value is set. */
  set?: boolean;
  /** Secrets only, when it helps: the value with its password removed (an SMTP URL's user and host). */
  hint?: string;
}

export type SettingsView = Record<SettingKey, SettingView>;
