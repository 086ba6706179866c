// When one opt-in confirmation goes out (issue 11): for a new or renewed subscription through the subscribe page or
// START, when an owner adds one person (unless they untick it), and for an import only with "send a welcome text".
// Called inside the transaction that subscribed the people, so the confirmation and the subscription commit together.
//
// SMS pumping: the public page, an owner's list or an import would let anyone make us text any number, so every
// confirmation takes a slot under the text budgets (src/services/text-budget.ts: per owner and per install per hour,
// per number per 24 h; past them they wait in the outbox), nobody gets a second confirmation from the same business
// within 24 hours, whoever asks, and nothing goes for an owner the admin has not approved (held until releaseHeld).
import type { Clock } from "../clock.ts";
import { SANDBOX_CONFIRMATION_TEMPLATE_SID } from "../messaging/content-templates.ts";
import { type ConfirmationBusiness, type ConfirmationOrigin, HELD_UNTIL } from "../repos/sql/confirmations.ts";
import type { Repos } from "../repos/index.ts";
import { confirmationTemplateVariables, confirmationText } from "../schemas/confirmation.ts";
import type { CurrentSettings } from "./settings.ts";
import type { TextBudgetService } from "./text-budget.ts";

export interface ConfirmationRequest {
  businessId: number;
  customerIds: number[];
  origin: ConfirmationOrigin;
  createdBy?: number | null;
  /** Add to this confirmation broadcast of the same business (an import's welcome, chunk by chunk). */
  into?: number;
  /** The customers' phones when the caller has them (an import); read from the customers otherwise. */
  phones?: ReadonlyMap<number, string>;
  /** The business and the settings in use when the caller has just read them (the public subscribe); read here
   * otherwise. */
  business?: ConfirmationBusiness;
  settings?: CurrentSettings;
}

export function createConfirmationsService({
  repos,
  clock,
  settings,
  textBudget,
}: {
  repos: Repos;
  clock: Clock;
  settings: { current(): CurrentSettings };
  textBudget: Pick<TextBudgetService, "confirmationSlots">;
}) {
  return {
    /** Queues the confirmation for those of `customerIds` who had none from this business in the last 24 hours;
     * the broadcast's id and how many were queued, or null when nobody was. Call inside the transaction that
     * subscribed them. */
    queue(r: ConfirmationRequest): { broadcastId: number; total: number } | null {
      const business = r.business ?? repos.confirmations.business(r.businessId);
      if (!business) return null;
      const now = clock.now().getTime();
      const customerIds = r.customerIds.filter((id) => !repos.confirmations.sentWithinDay(id, r.businessId, now));
      if (customerIds.length === 0) return null;
      const s = r.settings ?? settings.current();
      const broadcastId = r.into ?? open(r, business, now, s);
      const phones = r.phones ?? repos.confirmations.phonesOf(customerIds);
      const held = business.ownerStatus !== "approved";
      const slots = held ? null : textBudget.confirmationSlots(business.ownerId, customerIds.map((id) => phones.get(id) ?? ""), now, s);
      let total = 0;
      let firstId = 0;
      for (const customerId of customerIds) {
        const phone = phones.get(customerId) ?? "";
        const slot = slots ? slots.next(phone) : HELD_UNTIL;
        const id = repos.confirmations.addDelivery(broadcastId, r.businessId, customerId, slot, slots ? (slot > now ? "text_budget" : null) : "owner_pending");
        if (id === null) continue;
        slots?.take(phone, slot);
        firstId ||= id;
        total++;
      }
      repos.confirmations.finish(broadcastId, total, firstId, now);
      return total > 0 ? { broadcastId, total } : null;
    },
  };

  function open(r: ConfirmationRequest, business: { name: string; messagesPerWeek: number; doubleOptIn: boolean }, now: number, s: CurrentSettings): number {
    // WhatsApp reaches people outside the 24-hour window only with a template: the configured utility template,
    // or the sandbox's demo one. Without either, those deliveries are Skipped with the reason (whatsapp-skips.ts).
    const contentSid = s.whatsappConfirmationTemplate ?? (s.twilio ? null : SANDBOX_CONFIRMATION_TEMPLATE_SID);
    const text = { name: business.name, messagesPerWeek: business.messagesPerWeek, doubleOptIn: business.doubleOptIn };
    return repos.confirmations.open({
      businessId: r.businessId,
      origin: r.origin,
      createdBy: r.createdBy ?? null,
      messageText: confirmationText(text),
      contentSid,
      contentVariables: contentSid ? confirmationTemplateVariables(text) : null,
      now,
    });
  }
}

export type ConfirmationsService = ReturnType<typeof createConfirmationsService>;
