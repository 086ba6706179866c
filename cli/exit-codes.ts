// One exit-code table for every command, shown by `nearcast --help` and the README.
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_PARTIAL = 3;
/** `coupons redeem`: the code was used already, or has expired (an unknown code is 2, a code that names nothing). */
export const EXIT_COUPON_USED = 4;
export const EXIT_COUPON_EXPIRED = 5;

export const EXIT_CODES_HELP = `
Exit codes (every command):
  0  ok
  1  failure (the server is running, Twilio or the disk said no, ...)
  2  usage or bad input (unknown command or option, a bad value, an id that names nothing, no database at --data-dir, a schema to migrate)
  3  partly done (an import with invalid rows: the valid ones were added; a prune that kept broadcasts with links or coupons younger than 90 days)
  4  coupon already used (coupons redeem)
  5  coupon expired (coupons redeem)`;
