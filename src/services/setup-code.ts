// The first run belongs to whoever started the server (issue 21, item 3). While setup is due (setup.ts), every
// `nearcast serve` prints a one-time link with a code on its terminal and in its log, as PocketBase and Jupyter do;
// POST /api/setup creates the first admin only with a code one of them printed. Only the code's SHA-256 is stored, in
// the settings table under an internal key, so every serve process on the data dir knows the codes the others
// printed: each start adds its own (the newest few are kept) and any of them works, until one is used. The admin
// that use creates ends setup, and the codes are deleted in the same transaction: a code works once, and none works
// once an admin exists (also one made by `nearcast users create --admin`, since setup is then no longer due).
import { timingSafeEqual } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { AppError, ConflictError, TooManyRequestsError, ValidationError } from "../errors.ts";
import { RateLimiter, ipKey } from "../lib/rate-limiter.ts";
import { hashToken, randomToken } from "../lib/tokens.ts";
import type { Repos } from "../repos/index.ts";
import { checkSettingsUpdate } from "../schemas/settings.ts";
import type { SettingsService } from "./settings.ts";
import { setupRefusal } from "./setup.ts";

/** An internal key in the settings table (not a setting: settings.view() lists only SETTING_KEYS). */
export const SETUP_CODES_KEY = "internal.setupCodeHashes";
/** Codes of this many serve starts stay valid together (a second server on the folder must not kill the first's). */
export const SETUP_CODES_KEPT = 5;
/** Wrong codes per address per window before a 429: the code has 256 bits, so this only keeps a flood short. */
export const SETUP_CODE_TRIES = 10;
const TRIES_WINDOW_MS = 15 * 60_000;

const WHERE = "the setup link is printed in the terminal where nearcast serve runs, and in its log (journalctl -u nearcast)";
export const SETUP_CODE_MISSING = `The setup code is required: ${WHERE}.`;
export const SETUP_CODE_WRONG = `This setup code is not valid: open the newest setup link; ${WHERE}.`;

/** 403 setup_code_invalid: a missing or wrong code; nothing was created. */
export class SetupCodeError extends AppError {
  constructor(message: string) {
    super(403, "setup_code_invalid", message, { code: message });
  }
}

export interface SetupCodeDeps {
  repos: Repos;
  clock: Clock;
  config: Pick<Config, "adminEmail" | "host" | "envSettings">;
  settings: Pick<SettingsService, "savedPublicUrl">;
}

/** The address a person at the server opens: the public URL when saved, else localhost (or the one address bound). */
function setupBase(serverUrl: string, host: string, publicUrl: string | null): string {
  if (publicUrl) return publicUrl;
  const port = /:(\d+)\/?$/.exec(serverUrl)?.[1] ?? "";
  const wildcardOrLoopback = ["0.0.0.0", "::", "127.0.0.1", "::1", "localhost"].includes(host);
  const name = wildcardOrLoopback ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return `http://${name}${port ? `:${port}` : ""}`;
}

export function createSetupCodeService({ repos, clock, config, settings }: SetupCodeDeps) {
  const wrongByIp = new RateLimiter(clock, SETUP_CODE_TRIES, TRIES_WINDOW_MS);

  function storedHashes(): string[] {
    try {
      const parsed: unknown = JSON.parse(repos.settings.get(SETUP_CODES_KEY) ?? "[]");
      return Array.isArray(parsed) ? parsed.filter((h): h is string => typeof h === "string") : [];
    } catch {
      return [];
    }
  }

  function isIssued(code: string): boolean {
    const given = Buffer.from(hashToken(code));
    return storedHashes().some((h) => h.length === given.length && timingSafeEqual(Buffer.from(h), given));
  }

  /** A fresh code while setup is due (stored hashed beside the codes other serve processes printed), else null, and
   * codes left from an earlier run are deleted. */
  function issue(): string | null {
    return repos.transaction(() => {
      if (setupRefusal(repos, config.adminEmail)) {
        repos.settings.remove([SETUP_CODES_KEY]);
        return null;
      }
      const code = randomToken();
      const hashes = [...storedHashes(), hashToken(code)].slice(-SETUP_CODES_KEPT);
      repos.settings.save(SETUP_CODES_KEY, JSON.stringify(hashes), clock.now());
      return code;
    });
  }

  /** The setup screen's public URL, checked like the setting (control characters refused); null: nothing to save
   * (none given, or NEARCAST_PUBLIC_URL is set, which wins anyway). */
  function publicUrlToSave(raw: unknown): string | null {
    if (raw === undefined || raw === null || raw === "" || config.envSettings.publicUrl !== undefined) return null;
    const checked = checkSettingsUpdate({ publicUrl: raw });
    if (!checked.ok) throw new ValidationError(checked.message, { publicUrl: checked.message });
    return checked.value.publicUrl ?? null;
  }

  return {
    issue,

    /**
     * `serve`'s one call: while setup is due, writes the setup link (the one secret the log may hold) with `write`.
     * `serverUrl` is the address the server listens on (for its port); `alsoAt`, the machine's other addresses it
     * answers on (a server set up from a laptop beside a Pi): the same link at each, when no public URL is saved.
     */
    announce(serverUrl: string, write: (line: string) => void, alsoAt: string[] = []): void {
      const code = issue();
      if (!code) return;
      const saved = settings.savedPublicUrl();
      const link = `${setupBase(serverUrl, config.host, saved)}/setup?code=${code}`;
      write(`First run: open ${link} to create this server's admin account (the link works until an admin exists)`);
      if (!saved && alsoAt.length > 0) write(`First run, from another device on this network: ${alsoAt.map((base) => `${base}/setup?code=${code}`).join(" or ")}`);
    },

    /**
     * POST /api/setup's checks before any account work, in this order: 409 once setup is not due; 429 after
     * SETUP_CODE_TRIES wrong codes from this address; 403 for a missing or wrong `code`; 400 for a bad `publicUrl`.
     * Returns what to run inside the transaction that creates the admin: the code checked again and spent (all
     * codes deleted), and the public URL the setup screen was opened at (or the admin typed) saved.
     */
    admit(body: Record<string, unknown>, clientIp: string): () => void {
      const refusal = setupRefusal(repos, config.adminEmail);
      if (refusal) throw new ConflictError(refusal);
      const ip = ipKey(clientIp);
      const wait = wrongByIp.retryAfter(ip);
      if (wait > 0) {
        const minutes = Math.ceil(wait / 60);
        throw new TooManyRequestsError(`Too many wrong setup codes. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`, wait);
      }
      const code = typeof body.code === "string" ? body.code.trim() : "";
      if (!code) throw new SetupCodeError(SETUP_CODE_MISSING);
      if (code.length > 200 || !isIssued(code)) {
        wrongByIp.record(ip);
        throw new SetupCodeError(SETUP_CODE_WRONG);
      }
      const publicUrl = publicUrlToSave(body.publicUrl);
      return () => {
        if (!isIssued(code)) throw new SetupCodeError(SETUP_CODE_WRONG);
        repos.settings.remove([SETUP_CODES_KEY]);
        if (publicUrl) repos.settings.save("publicUrl", publicUrl, clock.now());
      };
    },
  };
}

export type SetupCodeService = ReturnType<typeof createSetupCodeService>;
