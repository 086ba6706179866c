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
import { phoneTimeZones } from "../../lib/phone-time-zones.ts";
import { nextAllowed } from "../../lib/quiet-hours.ts";
import type { DeferralPolicy } from "../../repos/sql/claim.ts";

/** A person who wrote within this long may be answered during quiet hours. */
export const RECENT_MS = 3_600_000;
export const TEMPLATE_ON_SMS = "A template (contentSid) is for WhatsApp; this person follows by SMS.";

export interface ReplyDeps {
  repos: Repos;
  clock: Clock;
  /** Quiet hours now (the claim applies them; the answer says when they will let it go). */
  deferralPolicy: () => DeferralPolicy;
  textBudget: Pick<TextBudgetService, "tryNow">;
  templates?: WhatsAppTemplatesService;
}

const invalid = (field: string, text: string) => new ValidationError(text, { [field]: text });

/** templateChoice names the broadcast form's fields (ContentSid); this body's are contentSid, contentVariables. */
async function namedAsGiven<T>(choice: Promise<T>): Promise<T> {
  try {
    return await choice;
  } catch (e) {
    if (!(e instanceof ValidationError) || !e.fields) throw e;
    const fields = Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [k.charAt(0).toLowerCase() + k.slice(1), v]));
    throw new ValidationError(e.message, fields);
  }
}

/** When quiet hours let an answer to `phone` go (as the claim decides: the number's zones, else the business's, else
 * the server's); null when it goes now. */
function heldUntil(phone: string, businessZone: string | null, now: number, policy: DeferralPolicy): string | null {
  const zones = phoneTimeZones(phone);
  const at = nextAllowed(now, zones.length > 0 ? zones : [businessZone ?? policy.serverZone()], policy.quietHours);
  return at !== null && at > now ? new Date(at).toISOString() : null;
}

export function createInboxReplies({ repos, clock, deferralPolicy, textBudget, templates }: ReplyDeps) {
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
      template = await namedAsGiven(templateChoice(templates, { contentSid: sid, contentVariables: input.contentVariables?.trim() ?? "" }, false));
      if (!template && !(lastWrote !== null && lastWrote > now - WHATSAPP_WINDOW_MS)) throw invalid("messageText", REPLY_WHATSAPP_WINDOW_CLOSED);
    }
    const messageText = input.messageText || template?.template.body || "";
    if (!messageText) throw invalid("messageText", REPLY_TEXT_REQUIRED);
    const recent = Math.max(lastWrote ?? 0, repos.customerInbound.lastInboundAt(input.customerId, channel === "SMS" ? "WhatsApp" : "SMS") ?? 0) > now - RECENT_MS;
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
        recent,
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
      heldUntil: recent || status !== "Queued" ? null : heldUntil(customer.phone, business.timeZone ?? null, now, deferralPolicy()),
    };
  };
}
