import { resolve } from "node:path";
import * as v from "valibot";
import { LOG_LEVELS, type LogLevel } from "./lib/logger.ts";
import { SECRET_SETTINGS, SETTING_ENV, SETTING_KEYS, SETTING_SCHEMAS, type SettingKey } from "./schemas/settings.ts";
import { isOneLine } from "./schemas/text.ts";

// The only reader of process.env. Everything else receives a Config.
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  env: "production" | "development";
  adminEmail: string | null;
  /** The settings given by environment variables (SETTING_ENV), checked; they override the saved ones. */
  envSettings: EnvSettings;
  subscribeLimit: number;
  /** NEARCAST_REGISTER_LIMIT: registrations per IP per hour (0 = no limit). */
  registerLimit: number;
  /** NEARCAST_REGISTER_GLOBAL_LIMIT: registrations per hour on the whole server (0 = no limit). */
  registerGlobalLimit: number;
  /** NEARCAST_RECONCILE_AFTER (seconds): when a send's answer was lost, how long to wait for its status callback
   * before asking the provider whether it has the message. */
  reconcileAfterMs: number;
  defaultCountry: string;
  trustProxy: boolean;
  twilioApiBase: string;
  /** NEARCAST_DISK_MARGIN_MB: the room writes leave free on the data dir's disk; null = max(50 MB, 2% of the disk). */
  diskMarginMb: number | null;
  /** NEARCAST_BACKUP_EVERY ("24h", "30m", "7d", "off"): serve's backups into <dataDir>/backups; null = none. */
  backupEveryMs: number | null;
  /** NEARCAST_BACKUP_KEEP: how many of those serve keeps (the newest). */
  backupKeep: number;
  /** NEARCAST_LOG_LEVEL: the least important lines serve writes (default info). */
  logLevel: LogLevel;
  /** NEARCAST_ACCESS_LOG: a line per request (method, path without its query, status, ms) at info. */
  accessLog: boolean;
}

export type EnvSettings = Partial<Record<SettingKey, string>>;

export interface ConfigOverrides {
  port?: string | number;
  host?: string;
  dataDir?: string;
}

/** A bad setting: the message names it and is printed as one line. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** A setting's value as shown in an error: quoted and escaped, so the error stays one line whatever was typed. */
function shown(raw: unknown): string {
  const text = String(raw);
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}...` : text);
}

function intSetting(name: string, raw: string | number | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  // Digits only: Number() would also take " " (0), "0x50", "1e3" and "+80".
  const text = String(raw).trim();
  const n = /^\d{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got ${shown(raw)})`);
  }
  return n;
}

function numberSetting(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = /^\d+(\.\d+)?$|^\.\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be a number from ${min} to ${max} (got ${shown(raw)})`);
  }
  return n;
}

function logLevelSetting(raw: string | null): LogLevel {
  if (raw === null) return "info";
  const level = raw.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new ConfigError(`NEARCAST_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got ${shown(raw)})`);
  return level as LogLevel;
}

const DURATION_UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "off", or a whole number of minutes, hours or days ("90m", "24h", "7d"); at least 10 minutes. */
function durationSetting(name: string, raw: string): number | null {
  if (/^(off|0|false|no)$/i.test(raw.trim())) return null;
  const m = /^\s*(\d{1,6})\s*([mhd])\s*$/i.exec(raw);
  const ms = m ? Number(m[1]) * DURATION_UNITS[m[2]!.toLowerCase()]! : Number.NaN;
  if (!(ms >= 10 * 60_000)) throw new ConfigError(`${name} must be off or a duration of at least 10 minutes such as 30m, 24h or 7d (got ${shown(raw)})`);
  return ms;
}

function boolSetting(name: string, raw: string | null, fallback: boolean): boolean {
  if (raw === null) return fallback;
  const v = raw.toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false (got ${shown(raw)})`);
}

function urlSetting(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL (got ${shown(raw)})`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname || url.search || url.hash) {
    throw new ConfigError(`${name} must be an absolute http(s) URL without query or fragment (got ${shown(raw)})`);
  }
  return raw.replace(/\/+$/, "");
}

/** An optional text setting from the CLI (where "" is a mistake) or the environment (where "" means unset). */
function textSetting(name: string, override: string | undefined, envValue: string | null): string | null {
  if (override === undefined) return envValue;
  const v = override.trim();
  if (!v) throw new ConfigError(`${name} must not be empty`);
  return v;
}

function opt(env: Env, name: string): string | null {
  const v = env[name]?.trim();
  // Inside a value (the ends are trimmed): a line break would let the value forge what follows it in a log or header.
  if (v && !isOneLine(v)) throw new ConfigError(`${name} must be one line, without line breaks or other control characters`);
  return v ? v : null;
}

/** Each setting's environment variable, checked by the same schema as the Settings screen. */
function envSettings(env: Env): EnvSettings {
  const out: EnvSettings = {};
  for (const key of SETTING_KEYS) {
    const raw = opt(env, SETTING_ENV[key]);
    if (raw === null) continue;
    // As given, untrimmed: the schema refuses a line break at either end too (the Settings screen and the API do).
    const result = v.safeParse(SETTING_SCHEMAS[key], env[SETTING_ENV[key]]);
    // A secret's value is never echoed, not even in an error.
    const got = SECRET_SETTINGS.has(key) ? "" : ` (got ${shown(raw)})`;
    if (!result.success) throw new ConfigError(`${SETTING_ENV[key]}: ${result.issues[0].message}${got}`);
    out[key] = result.output;
  }
  checkTwilioEnv(out);
  return out;
}

// Twilio given by the environment comes whole: credentials and a sender, or nothing. Half of it would silently fall
// back to the sandbox, and nothing would ever reach a phone.
function checkTwilioEnv(s: EnvSettings): void {
  const senders = ["twilioFrom", "twilioMessagingServiceSid", "twilioWhatsAppFrom"] as const;
  if (!s.twilioAccountSid && !s.twilioAuthToken) {
    const sender = senders.find((k) => s[k]);
    if (sender) throw new ConfigError(`TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are required when ${SETTING_ENV[sender]} is set`);
    return;
  }
  if (!s.twilioAccountSid) throw new ConfigError("TWILIO_ACCOUNT_SID is required when TWILIO_AUTH_TOKEN is set");
  if (!s.twilioAuthToken) throw new ConfigError("TWILIO_AUTH_TOKEN is required when TWILIO_ACCOUNT_SID is set");
  if (!senders.some((k) => s[k])) {
    throw new ConfigError("TWILIO_FROM, TWILIO_MESSAGING_SERVICE_SID or TWILIO_WHATSAPP_FROM is required with Twilio credentials");
  }
}

export function loadConfig(env: Env = process.env, overrides: ConfigOverrides = {}): Config {
  const port = intSetting(
    overrides.port !== undefined ? "--port" : "NEARCAST_PORT",
    overrides.port ?? opt(env, "NEARCAST_PORT") ?? undefined,
    3000,
    0,
    65535,
  );
  const hostName = overrides.host !== undefined ? "--host" : "NEARCAST_HOST";
  const host = textSetting("--host", overrides.host, opt(env, "NEARCAST_HOST")) ?? "0.0.0.0";
  if (!/^[A-Za-z0-9.:%_\-[\]]+$/.test(host)) {
    throw new ConfigError(`${hostName} must be a host name or IP address (got ${shown(host)})`);
  }
  const dataDir = resolve(textSetting("--data-dir", overrides.dataDir, opt(env, "NEARCAST_DATA_DIR")) ?? "./data");
  const rawEnv = opt(env, "NEARCAST_ENV") ?? "production";
  if (rawEnv !== "production" && rawEnv !== "development") {
    throw new ConfigError(`NEARCAST_ENV must be "production" or "development" (got ${shown(rawEnv)})`);
  }
  const adminEmail = opt(env, "NEARCAST_ADMIN_EMAIL")?.toLowerCase() ?? null;
  if (adminEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) {
    throw new ConfigError(`NEARCAST_ADMIN_EMAIL must be an email address (got ${shown(adminEmail)})`);
  }
  const country = (opt(env, "NEARCAST_DEFAULT_COUNTRY") ?? "US").toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) {
    throw new ConfigError(`NEARCAST_DEFAULT_COUNTRY must be a two-letter country code (got ${shown(country)})`);
  }
  return {
    port,
    host,
    dataDir,
    env: rawEnv,
    adminEmail,
    envSettings: envSettings(env),
    reconcileAfterMs: 1000 * numberSetting("NEARCAST_RECONCILE_AFTER", opt(env, "NEARCAST_RECONCILE_AFTER") ?? undefined, 30, 0, 86400),
    subscribeLimit: intSetting("NEARCAST_SUBSCRIBE_LIMIT", opt(env, "NEARCAST_SUBSCRIBE_LIMIT") ?? undefined, 20, 0, 1_000_000),
    registerLimit: intSetting("NEARCAST_REGISTER_LIMIT", opt(env, "NEARCAST_REGISTER_LIMIT") ?? undefined, 5, 0, 1_000_000),
    registerGlobalLimit: intSetting("NEARCAST_REGISTER_GLOBAL_LIMIT", opt(env, "NEARCAST_REGISTER_GLOBAL_LIMIT") ?? undefined, 100, 0, 1_000_000),
    defaultCountry: country,
    trustProxy: boolSetting("NEARCAST_TRUST_PROXY", opt(env, "NEARCAST_TRUST_PROXY"), false),
    twilioApiBase: urlSetting("TWILIO_API_BASE", opt(env, "TWILIO_API_BASE") ?? "https://api.twilio.com"),
    logLevel: logLevelSetting(opt(env, "NEARCAST_LOG_LEVEL")),
    accessLog: boolSetting("NEARCAST_ACCESS_LOG", opt(env, "NEARCAST_ACCESS_LOG"), false),
    backupEveryMs: durationSetting("NEARCAST_BACKUP_EVERY", opt(env, "NEARCAST_BACKUP_EVERY") ?? "24h"),
    backupKeep: intSetting("NEARCAST_BACKUP_KEEP", opt(env, "NEARCAST_BACKUP_KEEP") ?? undefined, 7, 1, 1000),
    diskMarginMb: opt(env, "NEARCAST_DISK_MARGIN_MB") === null ? null : numberSetting("NEARCAST_DISK_MARGIN_MB", opt(env, "NEARCAST_DISK_MARGIN_MB")!, 0, 0, 1_000_000),
  };
}
