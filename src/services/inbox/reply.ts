// POST /api/inbox/Reply and `nearcast inbox reply` (issue 24 item 2): the owner answers one person of one of their
// businesses. SMS at any time to a subscribed person; WhatsApp free-form only within 24 hours of the person's last
// WhatsApp message, otherwise an approved template (checked like a broadcast's: templateChoice); never to someone
// opted out. It takes a slot of the owner's text budget, then goes through the outbox (src/repos/sql/inbox-replies.ts).
import type { Clock } from "../../clock.ts";
import { ConflictError, NotFoundError, ValidationError } from "../../errors.ts";
import type { Repos } from "../../repos/index.ts";
import { check } from "../../schemas/check.ts";
import {
  REPLY_NOT_SUBSCRIBED,
  REPLY_OPTED_OUT,
  REPLY_TEXT_REQUIRED,
  REPLY_WHATSAPP_WINDOW_CLOSED,
  replySchema,
  type ReplyResult,
} from "../../schemas/inbox.ts";
import { BUSINESS_NOT_FOUND } from "../../schemas/texts.ts";
import { budgetRefusal } from "../phone-verification.ts";
import { actingUserId, canManage, type Principal } from "../principal.ts";
import type { TextBudgetService } from "../text-budget.ts";
import { templateChoice } from "../broadcasts/template-choice.ts";
import type { WhatsAppTemplatesService } from "../whatsapp-templates.ts";
import { WHATSAPP_WINDOW_MS } from "../../repos/customer-inbound.ts";
import { stateOf } from "./view.ts";

/** A person who wrote within this long may be answered during quiet hours. */
export const RECENT_MS = 3_600_000;
export const TEMPLATE_ON_SMS = "A template (contentSid) is for WhatsApp; this person follows by SMS.";

export interface ReplyDeps {
  repos: Repos;
  clock: Clock;
  textBudget: Pick<TextBudgetService, "tryNow">;
  templates?: WhatsAppTemplatesService;
}

const invalid = (field: string, text: string) => new ValidationError(text, { [field]: text });

export function createInboxReplies({ repos, clock, textBudget, templates }: ReplyDeps) {
  return async function reply(actor: Principal, body: unknown): Promise<ReplyResult> {
    const checked = check(replySchema, body);
    if (!checked.ok) throw new ValidationError(checked.message, checked.errors);
    const input = checked.value;
    const business = repos.businesses.findById(input.businessId);
    if (!business || !canManage(actor, business)) throw new NotFoundError(BUSINESS_NOT_FOUND);
    const sub = repos.subscriptions.listByCustomer(input.customerId).find((s) => s.businessId === input.businessId);
    const customer = repos.customers.findById(input.customerId);
    if (!sub || !customer) throw new NotFoundError(REPLY_NOT_SUBSCRIBED);
    const allOut = repos.consentEvents.optedOut(input.customerId);
    const state = stateOf({ subStatus: sub.status, allOut: allOut ? 1 : 0, outSource: null });
    if (state === "optedOut" || state === "optedOutByReply") throw new ConflictError(REPLY_OPTED_OUT);
    if (sub.status !== "active") throw new ConflictError(REPLY_NOT_SUBSCRIBED);
    const now = clock.now().getTime();
    const channel = sub.contactPreference;
    const lastWrote = repos.customerInbound.lastInboundAt(input.customerId, channel);
    const sid = input.contentSid?.trim() ?? "";
    let template = null;
    if (channel === "SMS") {
      if (sid) throw invalid("contentSid", TEMPLATE_ON_SMS);
    } else {
      template = await templateChoice(templates, { contentSid: sid, contentVariables: input.contentVariables?.trim() ?? "" }, false);
      if (!template && !(lastWrote !== null && lastWrote > now - WHATSAPP_WINDOW_MS)) throw invalid("messageText", REPLY_WHATSAPP_WINDOW_CLOSED);
    }
    const messageText = input.messageText || template?.template.body || "";
    if (!messageText) throw invalid("messageText", REPLY_TEXT_REQUIRED);
    const lastAny = Math.max(lastWrote ?? 0, repos.customerInbound.lastInboundAt(input.customerId, channel === "SMS" ? "WhatsApp" : "SMS") ?? 0);
    const queued = repos.transaction(() => {
      const budget = textBudget.tryNow({ ownerId: business.ownerId, kind: "reply", phone: customer.phone, now });
      if (!budget.ok) throw budgetRefusal("your answer", budget.retryAfterSeconds);
      const q = repos.inboxReplies.queue({
        businessId: business.id,
        customerId: input.customerId,
        createdBy: actingUserId(actor),
        messageText,
        contentSid: template ? template.template.sid : null,
        contentVariables: template ? JSON.stringify(template.values) : null,
        recent: lastAny > now - RECENT_MS,
        now,
      });
      if (!q) throw new ConflictError(REPLY_OPTED_OUT);
      return q;
    });
    const status = queued.status === "Skipped" ? "Failed" : "Queued";
    return {
      item: {
        id: `out-${queued.deliveryId}`,
        direction: "out",
        kind: "ownerReply",
        body: messageText,
        mediaUrls: [],
        imageUrl: null,
        channel,
        status,
        errorMessage: null,
        at: new Date(now).toISOString(),
      },
      heldUntil: null,
    };
  };
}
