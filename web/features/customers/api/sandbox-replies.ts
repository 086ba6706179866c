import { api } from "../../../shared/api/client.ts";

// The sandbox's "try a reply": what a customer would text back goes through the real inbound webhook.

export interface SandboxInfo {
  sandbox: boolean;
  /** Admins only: the inbound webhook URL with the install's key, for trying replies with curl. */
  inboundUrl: string | null;
}

export const sandboxReplyApi = {
  info: () => api.get<SandboxInfo>("/api/webhooks/twilio/Sandbox"),
  /** The TwiML answer to a text `body` from `from`. */
  reply: (from: string, body: string) => api.post<string>("/api/webhooks/twilio/inbound", new URLSearchParams({ From: from, Body: body })),
};
