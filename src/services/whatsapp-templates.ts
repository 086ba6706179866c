// The WhatsApp templates an owner may use: the Twilio account's (Content API, cached briefly: the broadcast screen
// and every publish ask for them) or, without Twilio, the sandbox's demo ones.
import type { Clock } from "../clock.ts";
import { AppError } from "../errors.ts";
import { ContentApiError, fetchTemplates, SANDBOX_TEMPLATES } from "../messaging/content-templates.ts";
import type { MessengerConfig } from "../messaging/index.ts";
import type { WhatsAppTemplate } from "../schemas/whatsapp-templates.ts";

/** Templates change rarely (an approval takes minutes to days); a minute keeps the screen quick and Twilio unbothered. */
export const TEMPLATE_CACHE_MS = 60_000;
const TIMEOUT_MS = 10_000;

/** 502: Twilio could not give the list (its answer, or the network's, is in the message; never a credential). */
export class TemplatesUnavailableError extends AppError {
  constructor(detail: string) {
    super(502, "twilio_unavailable", `The WhatsApp templates could not be loaded from Twilio. ${detail}`);
  }
}

export interface WhatsAppTemplatesDeps {
  messaging: () => MessengerConfig;
  clock: Clock;
  /** For tests: another source than Twilio's Content API. */
  fetch?: typeof fetchTemplates;
  timeoutMs?: number;
}

export function createWhatsAppTemplatesService(deps: WhatsAppTemplatesDeps) {
  const load = deps.fetch ?? fetchTemplates;
  let cached: { key: string; at: number; templates: WhatsAppTemplate[] } | null = null;

  async function list(): Promise<WhatsAppTemplate[]> {
    const { twilio, twilioApiBase } = deps.messaging();
    if (!twilio) return SANDBOX_TEMPLATES.map((t) => ({ ...t, variables: t.variables.map((v) => ({ ...v })) }));
    // Another account (or API base) is another list.
    const key = JSON.stringify([twilio.accountSid, twilioApiBase]);
    const now = deps.clock.now().getTime();
    if (cached && cached.key === key && now - cached.at < TEMPLATE_CACHE_MS) return cached.templates;
    try {
      const templates = await load(twilio, twilioApiBase, deps.timeoutMs ?? TIMEOUT_MS, deps.clock);
      cached = { key, at: now, templates };
      return templates;
    } catch (err) {
      if (err instanceof ContentApiError) throw new TemplatesUnavailableError(err.message.split(twilio.authToken).join("[redacted]"));
      throw err;
    }
  }

  return {
    list,
    /** The template a ContentSid names (its `sid` in the API's answer), or null. */
    async find(contentSid: string): Promise<WhatsAppTemplate | null> {
      return (await list()).find((t) => t.sid === contentSid) ?? null;
    },
    /** The next list() asks Twilio again. */
    forget(): void {
      cached = null;
    },
  };
}

export type WhatsAppTemplatesService = ReturnType<typeof createWhatsAppTemplatesService>;
