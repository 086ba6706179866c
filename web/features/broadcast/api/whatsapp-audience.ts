import type { WhatsAppAudience } from "../../../../src/schemas/whatsapp-templates.ts";
import { api, idParam } from "../../../shared/api/client.ts";

/** GET WhatsAppAudience: the counts and the warnings to show before sending, with and without a template. */
export interface WhatsAppAudienceAnswer extends WhatsAppAudience {
  warningWithoutTemplate: string | null;
  warningWithTemplate: string | null;
}

/** Who on WhatsApp a broadcast of this business would reach. */
export const whatsappAudienceApi = {
  audience: (businessId: number | string) =>
    api.get<WhatsAppAudienceAnswer>(`/api/business/WhatsAppAudience?businessId=${idParam(businessId)}`),
};
