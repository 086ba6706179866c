// The email to each admin when sending pauses on a channel (src/services/sending-pause.ts): once per pause.
import type { MailMessage } from "./mailer.ts";

export function sendingPausedEmail(
  to: string,
  brandName: string,
  pause: { channel: string; reason: string; fix: string; since: number },
  publicUrl: string | null,
): MailMessage {
  const since = `${new Date(pause.since).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const lines = [
    "Hello,",
    "",
    `${brandName} stopped sending ${pause.channel} messages at ${since}: ${pause.reason}.`,
    "",
    `To fix it: ${pause.fix}`,
    "",
    "Nothing is lost and nobody is marked failed: broadcasts and confirmations wait, and go once it is fixed (each person gets their message once).",
    ...(publicUrl ? ["", `The checklist on your home page shows where it stands: ${publicUrl}`] : []),
    "",
    `— ${brandName}`,
  ];
  return { to, subject: `${brandName}: ${pause.channel} sending is paused`, text: lines.join("\n") };
}
