import { resolve } from "node:path";

// The only reader of process.env. Everything else receives a Config.
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  env: "production" | "development";
  adminEmail: string | null;
  sendRate: number;
  subscribeLimit: number;
  defaultCountry: string;
  trustProxy: boolean;
  twilio: TwilioConfig | null;
  twilioApiBase: string;
}

export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  from: string | null;
  messagingServiceSid: string | null;
  whatsappFrom: string | null;
}

export interface ConfigOverrides {
  port?: string | number;
  host?: string;
  dataDir?: string;
}

/** A bad setting: the message names it and is printed as one line. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function intSetting(name: string, raw: string | number | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === "") return fallback;
  const n = typeof raw === "number" ? raw : Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return n;
}

function numberSetting(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be a number from ${min} to ${max} (got "${raw}")`);
  }
  return n;
}

function urlSetting(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL (got "${raw}")`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`${name} must be an absolute http(s) URL (got "${raw}")`);
  }
  return raw.replace(/\/+$/, "");
}

function opt(env: Env, name: string): string | null {
  const v = env[name]?.trim();
  return v ? v : null;
}

function twilioSettings(env: Env): TwilioConfig | null {
  const accountSid = opt(env, "TWILIO_ACCOUNT_SID");
  const authToken = opt(env, "TWILIO_AUTH_TOKEN");
  if (!accountSid && !authToken) return null;
  if (!accountSid) throw new ConfigError("TWILIO_ACCOUNT_SID is required when TWILIO_AUTH_TOKEN is set");
  if (!authToken) throw new ConfigError("TWILIO_AUTH_TOKEN is required when TWILIO_ACCOUNT_SID is set");
  const from = opt(env, "TWILIO_FROM");
  const messagingServiceSid = opt(env, "TWILIO_MESSAGING_SERVICE_SID");
  const whatsappFrom = opt(env, "TWILIO_WHATSAPP_FROM");
  if (!from && !messagingServiceSid && !whatsappFrom) {
    throw new ConfigError("TWILIO_FROM, TWILIO_MESSAGING_SERVICE_SID or TWILIO_WHATSAPP_FROM is required with Twilio credentials");
  }
  return { accountSid, authToken, from, messagingServiceSid, whatsappFrom };
}

export function loadConfig(env: Env = process.env, overrides: ConfigOverrides = {}): Config {
  const port = intSetting(
    overrides.port !== undefined ? "--port" : "NEARCAST_PORT",
    overrides.port ?? env.NEARCAST_PORT,
    3000,
    0,
    65535,
  );
  const host = overrides.host ?? opt(env, "NEARCAST_HOST") ?? "0.0.0.0";
  const dataDir = resolve(overrides.dataDir ?? opt(env, "NEARCAST_DATA_DIR") ?? "./data");
  const rawEnv = opt(env, "NEARCAST_ENV") ?? "production";
  if (rawEnv !== "production" && rawEnv !== "development") {
    throw new ConfigError(`NEARCAST_ENV must be "production" or "development" (got "${rawEnv}")`);
  }
  const publicUrl = urlSetting("NEARCAST_PUBLIC_URL", opt(env, "NEARCAST_PUBLIC_URL") ?? `http://localhost:${port}`);
  const adminEmail = opt(env, "NEARCAST_ADMIN_EMAIL")?.toLowerCase() ?? null;
  if (adminEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) {
    throw new ConfigError(`NEARCAST_ADMIN_EMAIL must be an email address (got "${adminEmail}")`);
  }
  const country = (opt(env, "NEARCAST_DEFAULT_COUNTRY") ?? "US").toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) {
    throw new ConfigError(`NEARCAST_DEFAULT_COUNTRY must be a two-letter country code (got "${country}")`);
  }
  return {
    port,
    host,
    dataDir,
    publicUrl,
    env: rawEnv,
    adminEmail,
    sendRate: numberSetting("NEARCAST_SEND_RATE", opt(env, "NEARCAST_SEND_RATE") ?? undefined, 1, 0.01, 10000),
    subscribeLimit: intSetting("NEARCAST_SUBSCRIBE_LIMIT", opt(env, "NEARCAST_SUBSCRIBE_LIMIT") ?? undefined, 20, 0, 1_000_000),
    defaultCountry: country,
    trustProxy: ["1", "true", "yes"].includes((opt(env, "NEARCAST_TRUST_PROXY") ?? "").toLowerCase()),
    twilio: twilioSettings(env),
    twilioApiBase: urlSetting("TWILIO_API_BASE", opt(env, "TWILIO_API_BASE") ?? "https://api.twilio.com"),
  };
}
