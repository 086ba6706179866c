import type { WhatsAppTemplate } from "../../../src/schemas/whatsapp-templates.ts";
import { api } from "./client.ts";

// The account's WhatsApp templates (Twilio Content API, or the sandbox's): the settings list them, the broadcast
// screen offers them.

export type { WhatsAppTemplate };

export const whatsappApi = {
  templates: () => api.get<WhatsAppTemplate[]>("/api/business/WhatsAppTemplates"),
};
