// The fake Twilio's answers about the account and the sender (issue 23 item 2), as api.twilio.com gives them: the
// credentials a test can rotate mid-run (then every request is a 401 with code 20003, as after a token rotation in
// the console), a From number that cannot send (400, 21606) or is not the account's (400, 21659), and the status
// callback carriers cause for an unregistered US number (MessageStatus=undelivered, ErrorCode=30034), signed like
// Twilio's. Texts from Twilio's error pages (twilio.com/docs/api/errors/<code>).
import { twilioSignature } from "../../src/messaging/signature.ts";

/** Replies for the fake's script() / scriptFor(): errors about the sender, not the recipient. */
export const ACCOUNT_ERROR_REPLIES = {
  sender_not_capable: {
    reply: "error",
    status: 400,
    code: 21606,
    message: "The 'From' phone number provided is not a valid message-capable Twilio phone number for this destination/account",
  },
  sender_not_owned: { reply: "error", status: 400, code: 21659, message: "'From' is not a Twilio phone number or Short Code country mismatch" },
} as const;

export type AccountErrorReplyName = keyof typeof ACCOUNT_ERROR_REPLIES;

/** The account's auth token as the fake checks it. rotate() is the admin making a new primary token in the console:
 * requests signed with the old one are refused (401, 20003) from then on. */
export class FakeAccountAuth {
  private token: string;

  constructor(private readonly initial: string) {
    this.token = initial;
  }

  get current(): string {
    return this.token;
  }

  accepts(accountSid: string, auth: { username: string; password: string } | null): boolean {
    return auth !== null && auth.username === accountSid && auth.password === this.token;
  }

  rotate(next: string): void {
    this.token = next;
  }

  reset(): void {
    this.token = this.initial;
  }
}

export interface StatusCallbackFields {
  accountSid: string;
  messageSid: string;
  /** queued, sent, delivered, undelivered, failed... */
  status: string;
  from: string;
  to: string;
  /** Twilio sends it as text, only with undelivered / failed. */
  errorCode?: number;
}

/** A status callback as Twilio posts it: the form fields and the X-Twilio-Signature over `publicUrl` + `path`. */
export function statusCallbackRequest(authToken: string, publicUrl: string, path: string, f: StatusCallbackFields): { body: string; headers: Record<string, string> } {
  const params: Record<string, string> = {
    AccountSid: f.accountSid,
    ApiVersion: "2010-04-01",
    From: f.from,
    MessageSid: f.messageSid,
    MessageStatus: f.status,
    SmsSid: f.messageSid,
    SmsStatus: f.status,
    To: f.to,
    ...(f.errorCode !== undefined ? { ErrorCode: String(f.errorCode) } : {}),
  };
  return {
    body: new URLSearchParams(params).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": twilioSignature(authToken, publicUrl, path, params) },
  };
}
