import type { WhatsAppAudience, WhatsAppTemplate } from "../../../src/schemas/whatsapp-templates.ts";
import { api } from "./client.ts";

// The account's WhatsApp templates (Twilio Content API, or the sandbox's) and who on WhatsApp a broadcast would reach.

export type { WhatsAppAudience, WhatsAppTemplate };

/** GET WhatsAppAudience: the counts and the warnings to show before sending, with and without a template. */
export interface WhatsAppAudienceAnswer extends WhatsAppAudience {
  warningWithoutTemplate: string | null;
  warningWithTemplate: string | null;
}

export const whatsappApi = {
  templates: () => api.get<WhatsAppTemplate[]>("/api/business/WhatsAppTemplates"),
  audience: (businessId: number | string) =>
    api.get<WhatsAppAudienceAnswer>(`/api/business/WhatsAppAudience?businessId=${encodeURIComponent(String(businessId))}`),
};
