// What the Privacy Policy says about links with clicks and coupons redeemed at the counter (issue 25), in the
// sections that cover message records, their retention and deleting a number: what is recorded, for how long (as
// long as the message's own records: `nearcast prune` keeps them at least 90 days) and that forgetting a person
// erases it.

/** In "Message Records": what a click on a link and a redeemed coupon leave behind. */
export function LinkAndCouponRecords() {
  return (
    <p>
      When a message contains a link, each recipient gets a short link of their own on our own web address (never a
      public link shortener). When you open it, we record that the link was clicked, the time, and which message it
      came from. We keep no IP address beyond a day's check that the same click is not counted twice, and link previews
      made by phones, apps and carriers are not counted. When a message carries a coupon, we record when the code was
      redeemed and by whom: the person it was sent to, or the phone number given at the counter. The business sees
      these records in the results of its message.
    </p>
  );
}

/** In "Data Retention": how long those records live. */
export function LinkAndCouponRetention() {
  return (
    <p>
      Records of link clicks and coupon redemptions are kept as long as the records of the message they came from, and
      are deleted with them when old message records are cleared, never less than 90 days after the message was sent.
    </p>
  );
}

/** In "Deleting Your Data": they go with the number. */
export const LINK_AND_COUPON_ERASURE =
  "Deleting your number also deletes the record of the links you clicked and the coupons you redeemed.";
