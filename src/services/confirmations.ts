// When one opt-in confirmation goes out (issue 11): for a new or renewed subscription through the subscribe page or
// START, when an owner adds one person (unless they untick it), and for an import only with "send a welcome text".
// Called inside the transaction that subscribed the people, so the confirmation and the subscription commit together.
//
// SMS pumping: the public page would let anyone make us text any number, so its confirmations are capped per hour
// (setting confirmationsPerHour; past it they wait in the outbox) and nobody gets a second confirmation from the same
// business within 24 hours, whoever asks.
import type { Clock } from "../clock.ts";
import { SANDBOX_CONFIRMATION_TEMPLATE_SID } from "../messaging/content-templates.ts";
import type { ConfirmationOrigin } from "../repos/confirmations.ts";
import type { Repos } from "../repos/index.ts";
import { confirmationTemplateVariables, confirmationText } from "../schemas/confirmation.ts";
import type { CurrentSettings } from "./settings.ts";

export interface ConfirmationRequest {
  businessId: number;
  customerIds: number[];
  origin: ConfirmationOrigin;
  createdBy?: number | null;
}

export function createConfirmationsService({ repos, clock, settings }: { repos: Repos; clock: Clock; settings: { current(): CurrentSettings } }) {
  return {
    /** Queues the confirmation for those of `customerIds` who had none from this business in the last 24 hours;
     * the broadcast's id and how many were queued, or null when nobody was. */
    queue(r: ConfirmationRequest): { broadcastId: number; total: number } | null {
      const business = repos.businesses.findById(r.businessId);
      if (!business) return null;
      const now = clock.now().getTime();
      const customerIds = r.customerIds.filter((id) => !repos.confirmations.sentWithinDay(id, r.businessId, now));
      if (customerIds.length === 0) return null;
      const s = settings.current();
      // WhatsApp reaches people outside the 24-hour window only with a template: the configured utility template,
      // or the sandbox's demo one. Without either, those deliveries are Skipped with the reason (whatsapp-skips.ts).
      const contentSid = s.whatsappConfirmationTemplate ?? (s.twilio ? null : SANDBOX_CONFIRMATION_TEMPLATE_SID);
      const text = { name: business.name, messagesPerWeek: business.messagesPerWeek, doubleOptIn: business.doubleOptIn };
      const created = repos.confirmations.create({
        businessId: r.businessId,
        origin: r.origin,
        createdBy: r.createdBy ?? null,
        messageText: confirmationText(text),
        contentSid,
        contentVariables: contentSid ? confirmationTemplateVariables(text) : null,
        customerIds,
        now,
        ...(r.origin === "public" ? { notBefore: repos.confirmations.publicSlot(now, s.confirmationsPerHour) } : {}),
      });
      return created.total > 0 ? created : null;
    },
  };
}

export type ConfirmationsService = ReturnType<typeof createConfirmationsService>;
