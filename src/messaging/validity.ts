// A message Twilio dropped because its ValidityPeriod ran out (error 30036, issue 23 item 5): Nearcast sets that
// period to the time left before the recipient's quiet hours, so such a message was not failed but held off by the
// evening; it is recorded as Expired with this reason, counted apart from failures, and Retry sends it in the next
// window.
import { EXPIRED_BEFORE_QUIET_HOURS } from "../schemas/broadcasts.ts";
import type { ProviderMessage } from "./messenger.ts";

export { EXPIRED_BEFORE_QUIET_HOURS };
/** Twilio's "Validity Period Expired". */
export const VALIDITY_PERIOD_EXPIRED = 30036;

/** A failed or undelivered message whose validity period ran out. */
export function expiredAtQuietHours(m: Pick<ProviderMessage, "status" | "errorCode">): boolean {
  return m.status === "Failed" && m.errorCode === VALIDITY_PERIOD_EXPIRED;
}
