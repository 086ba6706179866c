// The email to an owner about new replies in the inbox (src/services/inbox/notify.ts): at most one an hour per
// business, listing the conversations with replies not read yet.
import type { MailMessage } from "./mailer.ts";

export interface ReplyNoticeLine {
  phone: string;
  preview: string;
  at: number;
}

export function replyNoticeEmail(to: string, brandName: string, businessName: string, lines: ReplyNoticeLine[], inboxUrl: string | null): MailMessage {
  const n = lines.length;
  const text = [
    "Hello,",
    "",
    `${n === 1 ? "A customer" : `${n} customers`} texted ${businessName}:`,
    "",
    ...lines.map((l) => `- ${l.phone} (${new Date(l.at).toISOString().slice(0, 16).replace("T", " ")} UTC): ${l.preview || "(a picture)"}`),
    "",
    inboxUrl ? `Read and answer them in your inbox: ${inboxUrl}` : "Read and answer them in your inbox.",
    "",
    `You get at most one of these an hour per business; the administrator can turn them off (setting replyEmails).`,
    "",
    `— ${brandName}`,
  ];
  return { to, subject: `${businessName}: ${n === 1 ? "a new reply" : `${n} new replies`} in your inbox`, text: text.join("\n") };
}
