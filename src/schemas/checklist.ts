// The setup checklist: the same lines on the admin's home page (GET /api/settings/Checklist) and in the terminal
// (`nearcast doctor`), built by src/services/checklist.ts.

export type ChecklistStatus = "green" | "amber" | "red";

/** One line of the setup checklist. */
export interface ChecklistItem {
  id: "publicUrl" | "messages" | "inboundWebhook" | "keywordReplies" | "email" | "businessTypes" | "quietHours" | "backups" | "sendingPaused" | "database" | "program" | "registration";
  status: ChecklistStatus;
  title: string;
  /** One sentence: what is true, and how to fix it when it is not green. */
  detail: string;
  /** A screen of the app that fixes it (the registration kit). */
  link?: { href: string; label: string };
}

/** The path Twilio posts incoming messages to, after the public URL. */
export const INBOUND_WEBHOOK_PATH = "/api/webhooks/twilio/inbound";
