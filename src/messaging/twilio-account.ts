// Whether Twilio accepts the credentials in use: one read-only request for the account itself
// (GET /2010-04-01/Accounts/{sid}.json), for the setup checklist and `nearcast doctor`. It sends nothing and costs
// nothing.
import { systemClock } from "../clock.ts";
import { TimedOut, TwilioError, restClient, type TwilioConfig } from "./twilio-rest.ts";

/** Long enough for a slow link to Twilio, short enough that the admin's home page does not hang on it. */
export const ACCOUNT_CHECK_TIMEOUT_MS = 5000;

export type TwilioAccountCheck =
  /** Twilio answered with the account: `status` is Twilio's ("active", "suspended", "closed"). */
  | { kind: "account"; status: string; friendlyName: string | null }
  /** Twilio refused the credentials (401) or knows no such account (404); `message` is Twilio's. */
  | { kind: "refused"; httpStatus: number; message: string }
  /** No answer from Twilio: network down, DNS, timeout, or Twilio's own 5xx. */
  | { kind: "unreachable"; message: string };

export async function checkTwilioAccount(cfg: TwilioConfig, apiBase: string, timeoutMs = ACCOUNT_CHECK_TIMEOUT_MS): Promise<TwilioAccountCheck> {
  try {
    const account = await restClient(cfg, apiBase, timeoutMs, systemClock).request("GET", ".json");
    return {
      kind: "account",
      status: typeof account.status === "string" ? account.status : "unknown",
      friendlyName: typeof account.friendly_name === "string" && account.friendly_name ? account.friendly_name : null,
    };
  } catch (err) {
    if (err instanceof TwilioError && err.status < 500 && err.status !== 429) return { kind: "refused", httpStatus: err.status, message: err.message };
    if (err instanceof TwilioError) return { kind: "unreachable", message: `Twilio answered ${err.status}: ${err.message}` };
    if (err instanceof TimedOut) return { kind: "unreachable", message: err.message };
    return { kind: "unreachable", message: (err as Error)?.message ?? String(err) };
  }
}
