import type { Clock } from "../clock.ts";
import { Backoff, RecentKeys } from "../lib/throttle.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Failed logins slow down the one trying, never lock the account for everyone (OWASP Authentication and Credential
 * Stuffing cheat sheets). Each gets a few free failures, then waits 1 s, 2 s, 4 s... after each further one (up to
 * the cap); a failure-free hour forgets it. A correct password from a place that is not waiting always works.
 * - pair: one account from one address: the guesser at the keyboard, typos included.
 * - address: counts DIFFERENT accounts failed from one address (credential stuffing); a shop's NAT with a couple of
 *   typos never comes near it, and an account that logged in from that address before is not slowed by it. Nor is
 *   a browser with a device cookie for the account (device-cookies.ts): other accounts failing behind the same NAT
 *   never hold it. Everyone else there (a newcomer, or the stuffer) waits seconds at most, never minutes: the address
 *   is all there is to tell them apart, and the pair and account throttles still bound the guesses at each account.
 * - account: all addresses together, a ceiling against a botnet spreading guesses; high, short, and again not for
 *   an address the owner logged in from before, so the owner still gets in.
 */
export const LOGIN_THROTTLE = {
  pair: { free: 5, baseDelayMs: 1000, maxDelayMs: 15 * MINUTE, forgetMs: HOUR },
  // Fewer keys than the others: each may hold up to 64 small account hashes (see Backoff.recordDistinct).
  address: { free: 20, baseDelayMs: 1000, maxDelayMs: 5000, forgetMs: HOUR, maxKeys: 20_000 },
  account: { free: 100, baseDelayMs: 1000, maxDelayMs: MINUTE, forgetMs: HOUR },
} as const;

/** The key of one account tried from one address. */
export const pairKey = (email: string, ip: string) => `${email}\n${ip}`;

/** The login throttles of one server; `ip` is the address's key (ipKey), `email` the normalised email. */
export function createLoginThrottle(clock: Clock, trustFor: number) {
  // Failures only: a user who logs in fine is never slowed down, and nothing locks an account for everyone.
  const byPair = new Backoff(clock, LOGIN_THROTTLE.pair);
  const byAddress = new Backoff(clock, LOGIN_THROTTLE.address);
  const byAccount = new Backoff(clock, LOGIN_THROTTLE.account);
  // (account, address) pairs that logged in lately: the owner's own places, which the address and account
  // throttles do not hold up (OWASP's device-cookie idea keyed on the address; the browser's own is device-cookies.ts).
  const trustedPairs = new RecentKeys(clock, trustFor);

  return {
    /**
     * Seconds this login must still wait before its password is even looked at; 0 when it may try. `knownDevice`:
     * the browser showed a valid device cookie for this very account.
     */
    retryAfter(email: string, ip: string, knownDevice = false): number {
      const pair = pairKey(email, ip);
      const trusted = trustedPairs.has(pair);
      return Math.max(byPair.retryAfter(pair), trusted || knownDevice ? 0 : byAddress.retryAfter(ip), trusted ? 0 : byAccount.retryAfter(email));
    },
    failed(email: string, ip: string): void {
      byPair.record(pairKey(email, ip));
      byAddress.recordDistinct(ip, email);
      byAccount.record(email);
    },
    /** The address's count is left alone: logging into one's own account must not wash away stuffing of others. */
    succeeded(email: string, ip: string): void {
      const pair = pairKey(email, ip);
      byPair.reset(pair);
      trustedPairs.mark(pair);
    },
    /** A new password: guesses at the old one no longer hold the account back. */
    passwordChanged(email: string): void {
      byAccount.reset(email);
    },
  };
}
