// The inbox (issue 24 items 1, 2 and 4): what customers text back, read by their business's owner (the admin and the
// operator read all), answered through the outbox, pruned after replyRetentionDays, erased with the person.
import type { Clock } from "../../clock.ts";
import type { Config } from "../../config.ts";
import { NotFoundError, throwIfInvalid } from "../../errors.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Mailer } from "../../mail/mailer.ts";
import type { Repos } from "../../repos/index.ts";
import type { FieldErrors } from "../../schemas/check.ts";
import { parseIdText } from "../../schemas/ids.ts";
import { CONVERSATION_NOT_FOUND, type Conversation, type ConversationPage, THREAD_LIMIT } from "../../schemas/inbox.ts";
import { checkPageParams, pageOf } from "../../schemas/paging.ts";
import { toE164 } from "../../schemas/phone.ts";
import { canManage, ownerScope, type Principal } from "../principal.ts";
import type { SettingsService } from "../settings.ts";
import type { TextBudgetService } from "../text-budget.ts";
import type { WhatsAppTemplatesService } from "../whatsapp-templates.ts";
import { inboxMediaStore } from "./media.ts";
import { createReplyNotices } from "./notify.ts";
import { createInboxReceiver } from "./receive.ts";
import { createInboxReplies } from "./reply.ts";
import { conversationRow, threadItem } from "./view.ts";

export const BUSINESS_ID_QUERY_INVALID = "businessId must be a positive whole number.";
export const CUSTOMER_ID_QUERY_INVALID = "customerId must be a positive whole number.";
export const MEDIA_NOT_FOUND = "Media not found.";
const DAY_MS = 86_400_000;
/** Media rows removed per transaction by prune. */
const PRUNE_CHUNK = 500;
/** A picture file with no row is swept once this old (by the file system's clock, which wrote its time). */
const ORPHAN_AFTER_MS = 3_600_000;

export interface InboxDeps {
  repos: Repos;
  clock: Clock;
  config: Pick<Config, "dataDir" | "defaultCountry">;
  logger: Logger;
  mailer: Mailer;
  settings: Pick<SettingsService, "current" | "savedPublicUrl" | "messaging" | "deferralPolicy">;
  textBudget: Pick<TextBudgetService, "tryNow">;
  templates?: WhatsAppTemplatesService;
}

/** A query's id, or an error named by its field. */
function queryId(raw: string | undefined, field: string, text: string, errors: FieldErrors): number | null {
  if (raw === undefined || raw === "") return null;
  const id = parseIdText(raw);
  if (id === null) errors[field] = text;
  return id;
}

export function createInboxService(deps: InboxDeps) {
  const { repos, clock } = deps;
  const media = inboxMediaStore(deps.config.dataDir);
  const notices = createReplyNotices(deps);
  const receiver = createInboxReceiver({ ...deps, media, messaging: () => deps.settings.messaging() });

  /** The conversation an actor may read (or, for a follower who never wrote, what was sent to them), or 404 (another
   * owner's looks like none). */
  function visible(actor: Principal, customerId: number, businessId: number) {
    const record = repos.inbox.find(customerId, businessId) ?? repos.inbox.subscriberView(customerId, businessId);
    if (!record || !canManage(actor, record)) throw new NotFoundError(CONVERSATION_NOT_FOUND);
    return record;
  }

  function sweepOrphanMedia(): number {
    const files = media.filesOlderThan(Date.now() - ORPHAN_AFTER_MS);
    const known = repos.inbox.knownMediaFiles(files);
    const orphans = files.filter((f) => !known.has(f));
    media.remove(orphans);
    return orphans.length;
  }

  return {
    media,
    notices,
    /** One inbound message's form fields: stored, its media fetched, the owner told (see receive.ts, notify.ts). */
    receive(params: Record<string, unknown>) {
      const received = receiver.receive(params);
      if (received.messageId !== null && received.businessId !== null) notices.soon();
      return received;
    },

    /** ListConversations: unread first, then the newest; `businessId` keeps one business. */
    list(actor: Principal, query: Record<string, string | undefined>): ConversationPage {
      const errors: FieldErrors = {};
      const { after, limit } = checkPageParams<number>(query, "number", errors);
      const businessId = queryId(query.businessId, "businessId", BUSINESS_ID_QUERY_INVALID, errors);
      throwIfInvalid(errors);
      const scope = ownerScope(actor);
      const rows = repos.inbox.page(scope, businessId, after, limit);
      const now = clock.now().getTime();
      return pageOf(rows, limit, (r) => ({ key: r.sortKey, id: r.id }), repos.inbox.count(scope, businessId), (shown) => shown.map((r) => conversationRow(r, now)));
    },

    /** GetConversation: the thread, oldest first; reading it marks it read. */
    get(actor: Principal, query: Record<string, string | undefined>): Conversation {
      const errors: FieldErrors = {};
      const customerId = queryId(query.customerId ?? "", "customerId", CUSTOMER_ID_QUERY_INVALID, errors);
      const businessId = queryId(query.businessId ?? "", "businessId", BUSINESS_ID_QUERY_INVALID, errors);
      if (customerId === null && !errors.customerId) errors.customerId = CUSTOMER_ID_QUERY_INVALID;
      if (businessId === null && !errors.businessId) errors.businessId = BUSINESS_ID_QUERY_INVALID;
      throwIfInvalid(errors);
      const record = visible(actor, customerId!, businessId!);
      if (record.unread > 0) repos.transaction(() => repos.inbox.markRead(customerId!, businessId!));
      const items = repos.inbox.thread(customerId!, businessId!, THREAD_LIMIT).reverse().map(threadItem);
      return { conversation: conversationRow({ ...record, unread: 0 }, clock.now().getTime()), items };
    },

    unreadCount: (actor: Principal) => ({ unread: repos.inbox.unreadCount(ownerScope(actor)) }),

    /** A reply's media file, for its conversation's owner (or the admin); 404 for anyone else. */
    mediaFile(actor: Principal, rawId: string | undefined): { path: string; contentType: string } {
      const id = parseIdText(rawId);
      const row = id === null ? undefined : repos.inbox.media(id);
      if (!row || row.ownerId === null || !canManage(actor, { ownerId: row.ownerId })) throw new NotFoundError(MEDIA_NOT_FOUND);
      return { path: media.path(row.fileName), contentType: row.contentType };
    },

    reply: createInboxReplies({ repos, clock, deferralPolicy: () => deps.settings.deferralPolicy(), textBudget: deps.textBudget, ...(deps.templates ? { templates: deps.templates } : {}) }),

    /** `nearcast prune`: bodies and media of replies older than replyRetentionDays. */
    prune(): { before: string; bodiesCleared: number; mediaRemoved: number } {
      const before = clock.now().getTime() - deps.settings.current().replyRetentionDays * DAY_MS;
      let mediaRemoved = 0;
      for (;;) {
        const files = repos.transaction(() => repos.inbox.pruneMedia(before, PRUNE_CHUNK));
        media.remove(files);
        mediaRemoved += files.length;
        if (files.length < PRUNE_CHUNK) break;
      }
      const bodiesCleared = repos.transaction(() => repos.inbox.clearBodies(before));
      return { before: new Date(before).toISOString(), bodiesCleared, mediaRemoved };
    },

    /** The server's hourly round: reply emails due since the last reply, and pictures nothing references. */
    hourly(): void {
      notices.soon();
      sweepOrphanMedia();
    },

    /** Hourly: pictures whose rows went with their business or owner (a cascade cannot delete files); how many. */
    sweepOrphanMedia,

    /** `customers forget`: every message the number sent and its media (before the customer row goes); how many.
     * A number that is not one erases nothing (the forget itself then says why). */
    forgetPhone(rawPhone: string): number {
      const phone = toE164(rawPhone, deps.config.defaultCountry);
      if (!phone) return 0;
      const erased = repos.transaction(() => repos.inbox.erasePerson(repos.customers.findByPhone(phone)?.id ?? null, phone));
      media.remove(erased.files);
      return erased.messages;
    },
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
