// Twilio answers about the account or the sender, not about one recipient: a rotated auth token, a From number that
// cannot send or is not ours, an unregistered US number, no sender set for the channel. Every message of the channel
// would meet the same answer, so none of them is the recipient's fault: sending on that channel pauses until the
// setting is fixed (src/dispatch/channel-gate.ts), and nobody is marked Failed. The one place these codes are named;
// errors about one recipient (21610, 21211, 21614, 63016...) stay with twilio.ts and whatsapp-errors.ts.
import type { Channel } from "./messenger.ts";

/** What stops a whole channel: Twilio's code (null when nothing reached Twilio), the reason in plain words, the fix. */
export interface AccountProblem {
  code: number | null;
  reason: string;
  fix: string;
}

const TOKEN_FIX = "Save the account's current auth token (Twilio console, Account info) in Settings.";
const SENDER_FIX = "Set a sender that is an SMS-capable number of this Twilio account (or a messaging service) in Settings.";

export const ACCOUNT_PROBLEMS: Readonly<Record<number, Omit<AccountProblem, "code">>> = {
  20003: { reason: "Twilio refused the credentials (the auth token was changed or revoked)", fix: TOKEN_FIX },
  21606: { reason: "Twilio says the sender number cannot send messages from this account to this destination", fix: SENDER_FIX },
  21659: { reason: "Twilio says the sender is not a Twilio number of this account", fix: SENDER_FIX },
  30034: {
    reason: "carriers block the US sender number because it is not registered for A2P 10DLC",
    fix: "Register the number's A2P 10DLC brand and campaign in the Twilio console (the registration kit fills in the form); sending resumes by itself once it is approved, or save the sender again in Settings.",
  },
  30032: {
    reason: "carriers block the toll-free sender number because it is not verified",
    fix: "Submit the toll-free verification in the Twilio console (the registration kit fills in the form); sending resumes by itself once it is approved, or save the sender again in Settings.",
  },
};

/** The account problem an answer means, or null when it is about one message. HTTP 401 is always the credentials,
 * whatever code came with it. */
export function accountProblemOf(httpStatus: number | null, code: number | null): AccountProblem | null {
  if (httpStatus === 401) return { code: code ?? 20003, ...ACCOUNT_PROBLEMS[20003]! };
  const known = code === null ? undefined : ACCOUNT_PROBLEMS[code];
  return known ? { code, ...known } : null;
}

/** The problem as a sentence, Twilio's own words after ours when it gave any: "Twilio refused the credentials (...)
 * (Twilio: Authenticate)". */
export function problemText(p: Pick<AccountProblem, "reason">, twilioMessage?: string | null): string {
  const reason = p.reason.charAt(0).toUpperCase() + p.reason.slice(1);
  return twilioMessage ? `${reason} (Twilio: ${twilioMessage})` : reason;
}

/** What a held message's history and its broadcast say meanwhile: "Paused: <reason>". */
export const pausedText = (reason: string) => `Paused: ${reason}`;

/** No sender is set for the channel: nothing can go on it, and nothing reached Twilio. */
export function noSenderProblem(channel: Channel): AccountProblem {
  return channel === "whatsapp"
    ? { code: null, reason: "no WhatsApp sender is set", fix: "Set the WhatsApp sender (TWILIO_WHATSAPP_FROM) in Settings." }
    : { code: null, reason: "no SMS sender is set", fix: "Set the SMS sender number or messaging service (TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID) in Settings." };
}
