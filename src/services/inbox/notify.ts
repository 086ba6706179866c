// Item 4 of issue 24: the owner hears about replies. At most one email an hour per business (inbox_notices keeps the
// last one, so a restart does not send twice), listing the conversations with replies that came since; only when
// email is set up and the replyEmails setting is on. The time is recorded before the email goes: a crash mid-send
// loses one notice rather than repeating it.
import { createBackground } from "../../lib/background.ts";
import { replyNoticeEmail } from "../../mail/reply-notice-email.ts";
import type { MailingDeps } from "../mailing-deps.ts";

export const NOTICE_EVERY_MS = 3_600_000;
export const INBOX_PATH = "/inbox";

export type NotifyDeps = MailingDeps;

export function createReplyNotices({ repos, clock, logger, mailer, settings }: NotifyDeps) {
  const background = createBackground(logger);

  // One round at a time: two replies at once must not both find the same business due.
  let last: Promise<unknown> = Promise.resolve();
  function sendDue(): Promise<number> {
    const round = last.then(sendRound, sendRound);
    last = round.catch(() => {});
    return round;
  }

  /** Emails every owner due a notice now; how many emails went. */
  async function sendRound(): Promise<number> {
    const s = settings.current();
    if (!s.replyEmails || !mailer.configured()) return 0;
    const now = clock.now().getTime();
    let sent = 0;
    for (const { businessId, notifiedAt } of repos.inbox.businessesToNotify(now - NOTICE_EVERY_MS)) {
      const since = notifiedAt ?? 0;
      const rows = repos.inbox.newSince(businessId, since);
      const owner = rows[0] ? repos.users.findById(rows[0].ownerId) : undefined;
      if (!owner || owner.status !== "approved") continue;
      repos.transaction(() => repos.inbox.noticed(businessId, now));
      const base = settings.savedPublicUrl();
      const lines = rows.map((r) => ({ phone: r.phone, preview: r.preview, at: r.lastMessageAt }));
      await mailer.send(replyNoticeEmail(owner.email, s.brandName, rows[0]!.businessName, lines, base ? `${base}${INBOX_PATH}` : null));
      logger.info(`reply notice for business ${businessId} sent to owner ${owner.id} (${rows.length} conversation(s))`);
      sent++;
    }
    return sent;
  }

  return {
    sendDue,
    /** After a reply is stored: the notices due go in the background. */
    soon(): void {
      background.run("the reply notice email", sendDue);
    },
    idle: () => background.idle(),
  };
}

export type ReplyNotices = ReturnType<typeof createReplyNotices>;
