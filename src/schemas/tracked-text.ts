// A broadcast's text as each person receives it (issue 25): every URL replaced by a short link on the shop's own
// address (`<public URL>/l/<code>`), and `{code}` by that person's coupon code. Pure, so the server's estimate, the
// broadcast screen's counter and the dispatcher all count and write the same text.

/** Short link codes: URL-safe letters and digits, long enough that guessing one is hopeless (62^8 ≈ 2^47). */
export const SHORT_CODE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const SHORT_CODE_LENGTH = 8;
/** The path a short link lives on: `/l/<code>`. */
export const SHORT_LINK_PREFIX = "/l/";

/** Unique coupon codes are read aloud and typed at a till: upper case, without 0/O, 1/I/L look-alikes. */
export const COUPON_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const UNIQUE_COUPON_LENGTH = 8;
/** Where a unique coupon code goes in the text. */
export const COUPON_PLACEHOLDER = "{code}";

// A URL as people write it in a text: http(s)://, up to the first space or angle bracket/quote. Punctuation that
// ends a sentence ("Visit https://shop.example/deals.") is not part of it.
const URL_PATTERN = /https?:\/\/[^\s<>"']+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/;

/** The URLs of `text`, in order of appearance (a URL written twice is listed twice: each place gets its own link). */
export function urlsIn(text: string): string[] {
  return [...text.matchAll(URL_PATTERN)].map((m) => m[0].replace(TRAILING_PUNCTUATION, "")).filter((u) => u.length > "https://".length);
}

/** `text` with its i-th URL replaced by `replace(i, url)`. */
export function replaceUrls(text: string, replace: (index: number, url: string) => string): string {
  let i = 0;
  return text.replace(URL_PATTERN, (match) => {
    const url = match.replace(TRAILING_PUNCTUATION, "");
    if (url.length <= "https://".length) return match;
    return replace(i++, url) + match.slice(url.length);
  });
}

/** `text` with `{code}` as `code` (the dispatcher's real one, or the screen's example). */
export const withCouponCode = (text: string, code: string): string => text.split(COUPON_PLACEHOLDER).join(code);

/** The short link a delivery's text carries for `code`. `publicUrl` has no trailing slash. */
export const shortLink = (publicUrl: string, code: string): string => `${publicUrl}${SHORT_LINK_PREFIX}${code}`;

/**
 * The text one recipient receives, for counting segments before anything is sent: each URL as a short link of the
 * real length (when `shortLinkBase`, the public URL, is given) and `{code}` as a unique code's length. The
 * placeholder characters are GSM-7, as the real codes are, so the encoding is the one the real texts get.
 */
export function textAsSent(text: string, opts: { shortLinkBase?: string | null; uniqueCoupons?: boolean }): string {
  let out = opts.shortLinkBase ? replaceUrls(text, () => shortLink(opts.shortLinkBase!, "x".repeat(SHORT_CODE_LENGTH))) : text;
  if (opts.uniqueCoupons) out = withCouponCode(out, "X".repeat(UNIQUE_COUPON_LENGTH));
  return out;
}
