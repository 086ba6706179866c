// Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies"): a successful login leaves in the
// browser an HMAC-signed cookie naming the account it signed in to. A later login to THAT account from a browser that
// shows one is not held by the per-address throttle, which other people's failures behind the same address (a shop's
// NAT, a café's Wi-Fi) may have raised; the per-account and per-(account, address) throttles still apply, and a cookie
// for one account gives no relief for another (src/services/login-throttle.ts).
//
// The key is this install's own, made once (256 random bits) and kept in the settings table under an internal key.
// Not the sandbox webhook key: that one is shown to the admin to paste into URLs, and a key that leaves the server
// must not be able to sign these.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Clock } from "../clock.ts";
import { randomToken } from "../lib/tokens.ts";
import type { Repos } from "../repos/index.ts";

export const DEVICE_COOKIE = "nearcast_device";
/** The internal settings key (not a setting: settings.view() lists only SETTING_KEYS) of the signing key. */
export const DEVICE_KEY_SETTING = "secret.deviceCookieKey";
/** How long a browser stays known after its last successful login (each login renews it). */
export const DEVICE_COOKIE_TTL_S = 180 * 24 * 3600;

export interface DeviceCookiesDeps {
  repos: Repos;
  clock: Clock;
}

export function createDeviceCookies({ repos, clock }: DeviceCookiesDeps) {
  let key: string | undefined;

  /** The signing key: read once, made on first use (in a transaction, so two processes agree on one). */
  function signingKey(): string {
    key ??= repos.transaction(() => {
      const saved = repos.settings.get(DEVICE_KEY_SETTING);
      if (saved) return saved;
      const made = randomToken();
      repos.settings.save(DEVICE_KEY_SETTING, made, clock.now());
      return made;
    });
    return key;
  }

  const mac = (userId: number, issuedS: number) =>
    createHmac("sha256", signingKey()).update(`nearcast device\n${userId}\n${issuedS}`).digest("base64url");

  return {
    /** The cookie's value for a browser that just signed in to `userId`: "<user id>.<issued, unix s>.<HMAC>". */
    issue(userId: number): string {
      const issuedS = Math.floor(clock.now().getTime() / 1000);
      return `${userId}.${issuedS}.${mac(userId, issuedS)}`;
    },

    /** The account a cookie value vouches for, or null: missing, malformed, forged, or older than its TTL. */
    accountOf(value: string | undefined): number | null {
      const m = value && value.length <= 200 ? /^([1-9]\d{0,15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
      if (!m) return null;
      const userId = Number(m[1]);
      const issuedS = Number(m[2]);
      const ageS = clock.now().getTime() / 1000 - issuedS;
      if (ageS > DEVICE_COOKIE_TTL_S || ageS < -300) return null;
      const expected = Buffer.from(mac(userId, issuedS));
      const given = Buffer.from(m[3]!);
      return timingSafeEqual(expected, given) ? userId : null;
    },
  };
}

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;
