// The setup checklist: what a new install still lacks, each line green, amber or red with one sentence on how to fix
// it. The admin's home page (GET /api/settings/Checklist) and `nearcast doctor` show the same lines.
import { minuteUtc } from "../lib/minute-utc.ts";
import { phoneZoneTableSize } from "../lib/phone-time-zones.ts";
import type { QuietSpan } from "../lib/quiet-hours.ts";
import type { Clock } from "../clock.ts";
import { listBackups } from "../db/backup.ts";
import type { Config } from "../config.ts";
import { ForbiddenError } from "../errors.ts";
import { checkTwilioAccount, type TwilioAccountCheck } from "../messaging/twilio-account.ts";
import type { TwilioConfig } from "../messaging/twilio-rest.ts";
import type { Repos } from "../repos/index.ts";
import { type ChecklistItem, INBOUND_WEBHOOK_PATH } from "../schemas/checklist.ts";
import { isPrivateLink, UNREACHABLE_LINK_FIX, UNREACHABLE_LINK_WARNING } from "../schemas/public-url.ts";
import { sendsPasswordInClear } from "../schemas/smtp-url.ts";
import { emailOutcomeItem } from "./email-outcomes.ts";
import { createPublicUrlReach } from "./public-url-reach.ts";
import { keywordRepliesItem, keywordSpeaker } from "./keyword-replies.ts";
import { managesAll, type Principal } from "./principal.ts";
import { pausedChecklistItems, readPauses } from "./sending-pause.ts";
import type { SettingsService } from "./settings.ts";
import type { RegistrationService } from "./registration/index.ts";
import type { DatabaseCheckService } from "./database-check.ts";
import { programItem, registrationItem } from "./registration/checklist-lines.ts";

/** An internal key in the settings table (not a setting: settings.view() lists only SETTING_KEYS). */
export const INBOUND_SEEN_KEY = "seen.inboundWebhookAt";
/** The inbound webhook's "last seen" is written at most this often: the checklist needs the day, not every SMS. */
export const INBOUND_SEEN_EVERY_MS = 60_000;

export interface ChecklistDeps {
  repos: Repos;
  clock: Clock;
  config: Pick<Config, "twilioApiBase" | "dataDir" | "backupEveryMs">;
  settings: SettingsService;
  /** The Twilio account check (a test may replace it); by default one GET to Twilio's Accounts endpoint. */
  checkAccount?: (cfg: TwilioConfig, apiBase: string) => Promise<TwilioAccountCheck>;
  /** The carrier-registration lines (the messaging program, a US sender not approved). */
  registration?: Pick<RegistrationService, "lintActive">;
  /** The red line of a database file found damaged by serve's background check. */
  databaseCheck?: Pick<DatabaseCheckService, "checklistItems">;
}

/** `privateOk`: Twilio's API is itself on a private address (a fake Twilio in tests), which can fetch from one. */
function publicUrlItem(url: string | null, privateOk = false): ChecklistItem {
  const title = "Public URL";
  if (!url) {
    return {
      id: "publicUrl",
      status: "red",
      title,
      detail: `Not set, so no reset link can be emailed, Twilio gets no images or delivery reports, and QR codes use whatever address a page was opened at. ${UNREACHABLE_LINK_FIX}`,
    };
  }
  const privateLink = isPrivateLink(url);
  if (privateLink && !privateOk) return { id: "publicUrl", status: "red", title, detail: `${url}: ${UNREACHABLE_LINK_WARNING}. ${UNREACHABLE_LINK_FIX}` };
  if (url.startsWith("http://") && !privateLink) {
    return {
      id: "publicUrl",
      status: "amber",
      title,
      detail: `${url} is not HTTPS: put the server behind HTTPS (for example a Caddy reverse proxy) and set the public URL to its https:// address.`,
    };
  }
  return { id: "publicUrl", status: "green", title, detail: `${url}: customers' phones can open the links and QR codes.` };
}

function messagesItem(problem: string | null, twilio: TwilioConfig | null, check: TwilioAccountCheck | null): ChecklistItem {
  const title = "Messages";
  if (problem) return { id: "messages", status: "red", title, detail: `${problem}. Complete it in Settings.` };
  if (!twilio || !check) {
    return {
      id: "messages",
      status: "amber",
      title,
      detail: "Sandbox: messages are recorded, not sent. Set the Twilio account SID, auth token and a sender in Settings to send for real.",
    };
  }
  const sid = twilio.accountSid;
  switch (check.kind) {
    case "account":
      return check.status === "active"
        ? { id: "messages", status: "green", title, detail: `Twilio accepts the credentials of ${check.friendlyName ? `"${check.friendlyName}" (${sid})` : sid}.` }
        : { id: "messages", status: "red", title, detail: `Twilio account ${sid} is ${check.status}: reactivate it in the Twilio console, or set another account in Settings.` };
    case "refused":
      return {
        id: "messages",
        status: "red",
        title,
        detail: `Twilio refused the credentials (${check.message}): check the account SID and auth token in Settings.`,
      };
    case "unreachable":
      return {
        id: "messages",
        status: "amber",
        title,
        detail: `Twilio could not be reached to check the credentials (${check.message}): check this server's internet connection.`,
      };
  }
}

function inboundItem(seenAt: string | undefined, publicUrl: string): ChecklistItem {
  const title = "Inbound webhook";
  if (seenAt) return { id: "inboundWebhook", status: "green", title, detail: `Seen ${minuteUtc(seenAt)}: replies such as STOP reach this server.` };
  return {
    id: "inboundWebhook",
    status: "amber",
    title,
    detail: `Not seen yet: in the Twilio console, set your number's "A message comes in" webhook to ${publicUrl}${INBOUND_WEBHOOK_PATH} (HTTP POST), so replies such as STOP reach this server.`,
  };
}

function emailItem(smtpUrl: string | null, mailFrom: string | null, sent: Parameters<typeof emailOutcomeItem>[0]): ChecklistItem {
  const title = "Email";
  if (smtpUrl && sendsPasswordInClear(smtpUrl)) {
    return { id: "email", status: "amber", title, detail: "SMTP is set with ?insecure=1, so its password may cross the network unencrypted: use smtps:// or a server that offers STARTTLS, then remove ?insecure=1 in Settings." };
  }
  return smtpUrl
    ? emailOutcomeItem(sent, smtpUrl, mailFrom)
    : { id: "email", status: "amber", title, detail: "Forgot-password cannot send email; set SMTP in Settings." };
}

function businessTypesItem(active: number): ChecklistItem {
  const title = "Business types";
  return active === 0
    ? { id: "businessTypes", status: "red", title, detail: "No active business type, so owners cannot create a business: add or activate one under Business Types." }
    : { id: "businessTypes", status: "green", title, detail: `${active} active business ${active === 1 ? "type" : "types"}.` };
}

/** Quiet hours need the phone-number time-zone table embedded in the executable: an empty one would mean every
 * number falls back to the business's zone, silently. */
function quietHoursItem(span: QuietSpan | null, maxPerDay: number): ChecklistItem {
  const title = "Quiet hours";
  const cap = maxPerDay > 0 ? `at most ${maxPerDay} per person per shop per 24 h` : "no daily cap";
  if (span === null) return { id: "quietHours", status: "amber", title, detail: `Off: marketing texts go at any hour; ${cap}.` };
  let prefixes = 0;
  try {
    prefixes = phoneZoneTableSize();
  } catch {
    prefixes = 0;
  }
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
  if (prefixes === 0) return { id: "quietHours", status: "red", title, detail: "The phone time-zone table is missing from this build: quiet hours use the business's zone for everyone." };
  return { id: "quietHours", status: "green", title, detail: `No marketing texts ${hhmm(span.start)}-${hhmm(span.end)} in the recipient's zone (${prefixes} number prefixes); ${cap}.` };
}

/** "3 hours", "2 days": how old a backup is. */
function age(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  if (hours < 1) return `${Math.max(1, Math.floor(ms / 60_000))} minute(s)`;
  return hours < 48 ? `${hours} hour(s)` : `${Math.floor(hours / 24)} days`;
}

function backupsItem(newest: { file: string; mtimeMs: number } | undefined, everyMs: number | null, now: number): ChecklistItem {
  const title = "Backups";
  const offFix = "Run nearcast backup from cron, or set NEARCAST_BACKUP_EVERY (e.g. 24h) so the server writes them.";
  if (!newest) {
    return {
      id: "backups",
      status: "amber",
      title,
      detail: everyMs === null ? `None, and the server writes none (NEARCAST_BACKUP_EVERY=off). ${offFix}` : "None yet: the server writes the first a minute after it starts, or run nearcast backup to write one now.",
    };
  }
  const old = now - newest.mtimeMs;
  const where = `${newest.file}. Copy the backups folder off this machine too.`;
  if (old > 2 * (everyMs ?? 86_400_000)) return { id: "backups", status: "amber", title, detail: `The last backup is ${age(old)} old: ${where} ${everyMs === null ? offFix : ""}`.trim() };
  return { id: "backups", status: "green", title, detail: `The last backup is ${age(old)} old: ${where}` };
}

export function createChecklistService({ repos, clock, config, settings, checkAccount = checkTwilioAccount, registration, databaseCheck }: ChecklistDeps) {
  // The last "seen" this process wrote, so a busy inbound webhook reads the database at most once a minute too.
  let lastSeenWrite = 0;
  const reach = createPublicUrlReach({ repos, clock });

  return {
    /**
     * The checklist, admin (or operator) only. `origin`: the request's, for the webhook URL the admin is told to
     * set when no public URL is saved; only Twilio's account check leaves this machine.
     */
    async items(actor: Principal, origin?: string): Promise<ChecklistItem[]> {
      if (!managesAll(actor)) throw new ForbiddenError("Only an administrator can do this.");
      const now = settings.current();
      const [check, program] = await Promise.all([
        now.twilio ? checkAccount(now.twilio, config.twilioApiBase) : null,
        registration ? programItem(registration, actor, settings.savedPublicUrl()) : null,
      ]);
      const activeTypes = repos.businessTypes.list().filter((t) => t.isActive).length;
      const publicUrl = await reach.confirm(publicUrlItem(now.publicUrl, isPrivateLink(config.twilioApiBase)), now.publicUrl);
      return [
        publicUrl,
        messagesItem(now.twilioProblem, now.twilio, check),
        inboundItem(repos.settings.get(INBOUND_SEEN_KEY), settings.publicUrl(origin)),
        ...(now.twilio ? [keywordRepliesItem(now.keywordReplies, keywordSpeaker(repos, now))] : []),
        emailItem(now.smtpUrl, now.mailFrom, repos.settings),
        businessTypesItem(activeTypes),
        quietHoursItem(now.quietHours, now.maxPerDay),
        backupsItem(listBackups(config.dataDir)[0], config.backupEveryMs, clock.now().getTime()),
        ...pausedChecklistItems(readPauses(repos)),
        ...(databaseCheck?.checklistItems() ?? []),
        ...[program, registrationItem(now)].filter((i): i is ChecklistItem => i !== null),
      ];
    },

    /** Twilio fetched an upload (public-url-reach.ts): the public URL works from outside. */
    twilioFetchedMedia(): void {
      reach.twilioFetchedMedia(settings.current().publicUrl);
    },

    /** An inbound webhook Twilio signed (or any, in the sandbox) has arrived: remembered for the checklist, at most
     * one write a minute. */
    inboundWebhookSeen(): void {
      const at = clock.now();
      if (at.getTime() - lastSeenWrite < INBOUND_SEEN_EVERY_MS) return;
      lastSeenWrite = at.getTime();
      const saved = repos.settings.get(INBOUND_SEEN_KEY);
      if (saved && at.getTime() - Date.parse(saved) < INBOUND_SEEN_EVERY_MS) return;
      repos.settings.save(INBOUND_SEEN_KEY, at.toISOString(), at);
    },
  };
}

export type ChecklistService = ReturnType<typeof createChecklistService>;
