// How often and how late a message is tried again.

/** Sends that never reached the provider (unavailable) or lost their answer are tried at most this often. */
export const MAX_ATTEMPTS = 10;
export const MAX_BACKOFF_MS = 10 * 60_000;

/** 1 s, 2 s, 4 s ... after the n-th attempt, at most 10 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, Math.min(30, attempts - 1)));
}
