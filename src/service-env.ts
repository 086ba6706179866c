// The service's settings file (issue 21 item 6): `nearcast install-service` writes /etc/nearcast/nearcast.env (0600,
// with NEARCAST_DATA_DIR) and systemd hands it to `serve`. The other commands read it the same way, so `nearcast
// doctor` or `sudo nearcast backup` typed on the server find the service's data dir and see its settings, instead
// of a ./data of their own. NEARCAST_ENV_FILE names another file (tests; a second install).
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError } from "./config.ts";

export const SERVICE_ENV_FILE = "/etc/nearcast/nearcast.env";

type Env = Record<string, string | undefined>;

/** The service's env file: NEARCAST_ENV_FILE, else /etc/nearcast/nearcast.env. */
export function serviceEnvFile(env: Env): string {
  return env.NEARCAST_ENV_FILE?.trim() || SERVICE_ENV_FILE;
}

/** NAME=value lines as systemd's EnvironmentFile= reads them: # and ; comments, blank lines, optional quotes. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2]!;
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0]) value = value.slice(1, -1);
    out[m[1]!] = value;
  }
  return out;
}

export interface ServiceEnv {
  /** The environment with the file's settings beneath it (what is set in the environment wins). */
  env: Env;
  /** The file read, or null (none, or it is another data dir's). */
  file: string | null;
}

/**
 * The environment a command runs with: its own, over the service's env file when there is one and the command is
 * on the service's data dir (no --data-dir or NEARCAST_DATA_DIR, or the same folder). A file there that cannot be
 * read is an error naming it, unless the command names its data dir itself.
 */
export function withServiceEnv(env: Env, dataDirFlag: string | undefined): ServiceEnv {
  const file = serviceEnvFile(env);
  if (!existsSync(file)) return { env, file: null };
  const named = dataDirFlag ?? (env.NEARCAST_DATA_DIR?.trim() || undefined);
  let values: Record<string, string>;
  try {
    values = parseEnvFile(readFileSync(file, "utf8"));
  } catch (e) {
    if (named !== undefined) return { env, file: null };
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "EACCES" || code === "EPERM" ? "permission denied" : (code ?? "unreadable");
    throw new ConfigError(`cannot read ${file}, the service's settings and data dir (${why}): run it with sudo, or name the data dir with --data-dir`);
  }
  if (named !== undefined && (!values.NEARCAST_DATA_DIR || resolve(values.NEARCAST_DATA_DIR) !== resolve(named))) return { env, file: null };
  const merged: Env = { ...env };
  for (const [k, v] of Object.entries(values)) if (!merged[k]?.trim()) merged[k] = v;
  return { env: merged, file };
}
