// The admin's settings: an environment variable wins, then the value saved in the database, then the default.
// Saved values are read from the database each time they are needed (a dozen rows), so a change made on the
// Settings screen or with `nearcast settings set` in another process is in use at once, without a restart.
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ForbiddenError, ValidationError } from "../errors.ts";
import type { MessengerConfig } from "../messaging/index.ts";
import type { TwilioConfig } from "../messaging/twilio.ts";
import type { Repos } from "../repos/index.ts";
import type { DeferralPolicy } from "../repos/sql/claim.ts";
import {
  checkSettingsUpdate,
  type KeywordReplier,
  SECRET_SETTINGS,
  SETTING_DEFAULTS,
  SETTING_ENV,
  SETTING_KEYS,
  type SettingKey,
  type SiteInfo,
  type SettingsView,
  type SettingView,
} from "../schemas/settings.ts";
import { parseQuietHours, type QuietSpan } from "../lib/quiet-hours.ts";
import { isPrivateLink } from "../schemas/public-url.ts";
import type { OwnerSignup } from "../schemas/owner-approval.ts";
import type { SenderRegistration } from "../schemas/registration.ts";
import { managesAll, type Principal } from "./principal.ts";
import { setupDue } from "./setup.ts";

export interface SettingsDeps {
  repos: Repos;
  clock: Clock;
  config: Pick<Config, "envSettings" | "port" | "twilioApiBase" | "adminEmail" | "defaultCountry">;
}

/** The settings in use, typed. */
export interface CurrentSettings {
  /** The public URL from the environment or the database; null when neither has one (see savedPublicUrl()). */
  publicUrl: string | null;
  brandName: string;
  contactEmail: string;
  /** null = the sandbox: no credentials, or not enough of them (`twilioProblem` then says what is missing). */
  twilio: TwilioConfig | null;
  twilioProblem: string | null;
  sendRate: number;
  smtpUrl: string | null;
  mailFrom: string | null;
  /** Each owner's room for uploaded images, in MB. */
  uploadQuotaMb: number;
  /** The quiet span in the recipient's local time; null = off (send at any hour). */
  quietHours: QuietSpan | null;
  /** Marketing messages per recipient per business per rolling 24 h; 0 = no cap. */
  maxPerDay: number;
  /** US dollars per SMS segment, for the estimate before a broadcast. */
  pricePerSegment: number;
  /** Countries whose numbers the public subscribe page takes (ISO codes); null = any ("*"). Unset: the default
   * country. */
  allowedCountries: string[] | null;
  /** Texts nobody broadcast (confirmations, welcome texts, test sends, verification codes) per rolling hour across
   * the install (SMS pumping); past it confirmations wait their turn and a test send answers 429. */
  confirmationsPerHour: number;
  /** The same per owner (all of the owner's businesses together). */
  ownerTextsPerHour: number;
  /** The WhatsApp utility template (Content SID) for opt-in confirmations; null: none configured. */
  whatsappConfirmationTemplate: string | null;
  /** How owners join: wait for the admin's approval, open, or closed (the admin creates them). */
  ownerSignup: OwnerSignup;
  /** Who answers STOP, START and HELP: Twilio's Advanced Opt-Out (when it says so on the request) or Nearcast. */
  keywordReplies: KeywordReplier;
  /** Where the US sender stands with the carriers (the registration kit's amber line until "approved"). */
  senderRegistration: SenderRegistration;
  /** Days the inbox keeps what customers text back (prune clears older bodies and media). */
  replyRetentionDays: number;
  /** Email each owner (at most hourly per business) about new replies. */
  replyEmails: boolean;
}

type Resolved = Record<SettingKey, { value: string | null; source: SettingView["source"] }>;

function twilioOf(get: (k: SettingKey) => string | null): { twilio: TwilioConfig | null; problem: string | null } {
  const accountSid = get("twilioAccountSid");
  const authToken = get("twilioAuthToken");
  const from = get("twilioFrom");
  const messagingServiceSid = get("twilioMessagingServiceSid");
  const whatsappFrom = get("twilioWhatsAppFrom");
  const hasSender = !!(from || messagingServiceSid || whatsappFrom);
  if (!accountSid && !authToken && !hasSender) return { twilio: null, problem: null };
  const missing = [!accountSid && "account SID", !authToken && "auth token", !hasSender && "an SMS or WhatsApp sender"].filter(Boolean);
  if (missing.length) return { twilio: null, problem: `Twilio needs its ${missing.join(", ")}; until then messages go to the sandbox` };
  return { twilio: { accountSid: accountSid!, authToken: authToken!, from, messagingServiceSid, whatsappFrom }, problem: null };
}

function allowedCountriesOf(value: string): string[] | null {
  return value.trim() === "*" ? null : value.toUpperCase().split(",").map((c) => c.trim()).filter(Boolean);
}

/** An SMTP URL without its password, to show which server and user are set. */
function smtpHint(url: string): string {
  try {
    const u = new URL(url);
    u.password = "";
    return u.toString().replace(/\/$/, "");
  } catch {
    return "";
  }
}

export function createSettingsService({ repos, clock, config }: SettingsDeps) {
  function resolved(): Resolved {
    const saved = repos.settings.all();
    const out = {} as Resolved;
    for (const key of SETTING_KEYS) {
      const env = config.envSettings[key];
      const stored = saved[key];
      const fallback = (SETTING_DEFAULTS as Partial<Record<SettingKey, string>>)[key];
      out[key] =
        env !== undefined
          ? { value: env, source: "env" }
          : stored !== undefined
            ? { value: stored, source: "saved" }
            : fallback !== undefined
              ? { value: fallback, source: "default" }
              : { value: null, source: "unset" };
    }
    return out;
  }

  function current(): CurrentSettings {
    const r = resolved();
    const get = (k: SettingKey) => r[k].value;
    const { twilio, problem } = twilioOf(get);
    return {
      publicUrl: get("publicUrl"),
      brandName: get("brandName")!,
      contactEmail: get("contactEmail")!,
      twilio,
      twilioProblem: problem,
      sendRate: Number(get("sendRate")),
      smtpUrl: get("smtpUrl"),
      mailFrom: get("mailFrom"),
      uploadQuotaMb: Number(get("uploadQuotaMb")),
      quietHours: parseQuietHours(get("quietHours")!) ?? null,
      maxPerDay: Number(get("maxPerDay")),
      pricePerSegment: Number(get("pricePerSegment")),
      allowedCountries: allowedCountriesOf(get("allowedCountries") ?? config.defaultCountry),
      confirmationsPerHour: Number(get("confirmationsPerHour")),
      ownerTextsPerHour: Number(get("ownerTextsPerHour")),
      whatsappConfirmationTemplate: get("whatsappConfirmationTemplate"),
      ownerSignup: get("ownerSignup") as OwnerSignup,
      keywordReplies: get("keywordReplies") as KeywordReplier,
      senderRegistration: get("senderRegistration") as SenderRegistration,
      replyRetentionDays: Number(get("replyRetentionDays")),
      replyEmails: get("replyEmails") !== "off",
    };
  }

  /**
   * THE base of every link that leaves the server for someone else (emails, Twilio's media and status-callback
   * URLs, texts): NEARCAST_PUBLIC_URL, else the saved setting; null when neither is set, and then such a link is
   * not made at all. Never a request's address: its Host header is whatever the sender typed (issue 21).
   */
  function savedPublicUrl(): string | null {
    return current().publicUrl?.replace(/\/+$/, "") ?? null;
  }

  /**
   * The base of links the signed-in owner fetches for themselves (QR modal, print page, PDF poster, GET /api/site):
   * the saved public URL, else the origin their own browser opened the page at, else (the CLI) http://localhost:PORT.
   * Never for anything sent to another person: that is savedPublicUrl().
   */
  function publicUrl(requestOrigin?: string | null): string {
    return savedPublicUrl() ?? requestOrigin?.replace(/\/+$/, "") ?? `http://localhost:${config.port}`;
  }

  function view(): SettingsView {
    const r = resolved();
    const out = {} as SettingsView;
    for (const key of SETTING_KEYS) {
      const { value, source } = r[key];
      const secret = SECRET_SETTINGS.has(key);
      out[key] = secret
        ? { value: null, source, env: SETTING_ENV[key], secret, set: value !== null, ...(key === "smtpUrl" && value ? { hint: smtpHint(value) } : {}) }
        : { value, source, env: SETTING_ENV[key], secret };
    }
    return out;
  }

  function requireAdmin(actor: Principal): void {
    if (!managesAll(actor)) throw new ForbiddenError();
  }

  return {
    current,
    savedPublicUrl,
    publicUrl,
    /** What holds marketing deliveries back at claim time (quiet hours, daily cap), from the settings in use now. */
    deferralPolicy(): DeferralPolicy {
      const c = current();
      return { quietHours: c.quietHours, maxPerDay: c.maxPerDay, serverZone: () => Intl.DateTimeFormat().resolvedOptions().timeZone };
    },
    /** The messenger's settings now (the dispatcher rebuilds its messenger when they change). Twilio is handed
     * media and callback URLs on the saved public URL only; without one it gets none (see twilio.ts). */
    messaging(): MessengerConfig {
      return { twilio: current().twilio, twilioApiBase: config.twilioApiBase, publicUrl: savedPublicUrl() };
    },

    /** GET /api/site: public facts about this server for the page that asked (`origin`: the request's). */
    site(origin: string): SiteInfo {
      const r = resolved();
      const url = publicUrl(origin);
      return {
        brandName: r.brandName.value!,
        contactEmail: r.contactEmail.value!,
        publicUrl: url,
        publicUrlSource: r.publicUrl.source === "env" ? "env" : r.publicUrl.source === "saved" ? "saved" : "request",
        publicUrlPrivate: isPrivateLink(url),
        setupNeeded: setupDue(repos, config.adminEmail),
        ownerSignup: r.ownerSignup.value as OwnerSignup,
        smsNumber: current().twilio?.from ?? null,
      };
    },

    /** GET /api/settings: every setting with where its value comes from; secrets say only whether they are set. */
    view(actor: Principal): SettingsView {
      requireAdmin(actor);
      return view();
    },

    /** PUT /api/settings: saves the given keys (null or "" removes a saved value) in one transaction, or nothing. */
    update(actor: Principal, input: unknown): SettingsView {
      requireAdmin(actor);
      const result = checkSettingsUpdate(input);
      if (!result.ok) throw new ValidationError(result.message, result.errors);
      const changes = Object.entries(result.value) as [SettingKey, string | null][];
      const locked = changes.filter(([key]) => config.envSettings[key] !== undefined);
      if (locked.length) {
        const errors = Object.fromEntries(locked.map(([key]) => [key, `${SETTING_ENV[key]} is set on the server, so this setting cannot be changed here`]));
        throw new ValidationError(Object.values(errors)[0]!, errors);
      }
      const now = clock.now();
      repos.transaction(() => {
        repos.settings.remove(changes.filter(([, value]) => value === null).map(([key]) => key));
        for (const [key, value] of changes) if (value !== null) repos.settings.save(key, value, now);
        // Messages held by the old window are planned again with the new one (issue 23 item 8).
        if (changes.some(([key]) => key === "quietHours")) repos.deliveries.replanQuietHeld(now.getTime());
      });
      return view();
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
