// Who on WhatsApp a broadcast of a business would reach now and who it would skip (see whatsapp-skips.ts): told
// before sending (GET WhatsAppAudience, the estimate) and with the publish's answer.
import type { Clock } from "../../clock.ts";
import { nextTurn } from "../../lib/next-turn.ts";
import { WHATSAPP_WINDOW_MS } from "../../repos/customer-inbound.ts";
import type { Repos } from "../../repos/index.ts";
import { whatsappMarketingReachable } from "../../schemas/whatsapp-marketing.ts";
import { type WhatsAppAudience, type WhatsAppTemplate, whatsappSkipWarning } from "../../schemas/whatsapp-templates.ts";
import type { Principal } from "../principal.ts";
import type { WhatsAppTemplatesService } from "../whatsapp-templates.ts";
import type { BroadcastAccess } from "./access.ts";

/** WhatsApp recipients read per turn of the server when counting who a broadcast would skip: a page costs some
 * 5 ms, most of it telling US numbers from the rest of +1 (libphonenumber). */
const AUDIENCE_PAGE = 500;

export function whatsappAudiences({ repos, clock, access, templates }: { repos: Repos; clock: Clock; access: BroadcastAccess; templates?: WhatsAppTemplatesService }) {
  /** The business's WhatsApp recipients now, by what will become of them. A page at a time, giving the server its
   * turn between pages: a big business has tens of thousands. */
  async function audience(businessId: number): Promise<WhatsAppAudience> {
    const since = clock.now().getTime() - WHATSAPP_WINDOW_MS;
    const out: WhatsAppAudience = { whatsapp: 0, inWindow: 0, needTemplate: 0, usNumbers: 0, marketingStopped: 0 };
    for (let after = 0; ; await nextTurn()) {
      const page = repos.broadcasts.whatsappRecipientsPage(businessId, since, after, AUDIENCE_PAGE);
      for (const r of page) {
        out.whatsapp++;
        if (r.inWindow) out.inWindow++;
        if (r.marketingStopped) {
          out.marketingStopped++;
          continue;
        }
        if (!r.inWindow) out.needTemplate++;
        if (!whatsappMarketingReachable(r.phone)) out.usNumbers++;
      }
      if (page.length < AUDIENCE_PAGE) return out;
      after = page.at(-1)!.subscriptionId;
    }
  }

  return {
    /** The publish's warning about who on WhatsApp it skips, when anyone is. */
    async skipWarning(businessId: number, withTemplate: boolean): Promise<{ warning?: string }> {
      const text = whatsappSkipWarning(await audience(businessId), withTemplate);
      return text ? { warning: text } : {};
    },

    /** GET WhatsAppAudience: who on WhatsApp a broadcast would reach now, and who it would skip (before sending). */
    async whatsappAudience(actor: Principal, businessId: number): Promise<WhatsAppAudience & { warningWithoutTemplate: string | null; warningWithTemplate: string | null }> {
      access.readable(actor, businessId);
      const a = await audience(businessId);
      return { ...a, warningWithoutTemplate: whatsappSkipWarning(a, false), warningWithTemplate: whatsappSkipWarning(a, true) };
    },

    /** GET WhatsAppTemplates: the account's templates (or the sandbox's), for any signed-in owner or admin. */
    whatsappTemplates(): Promise<WhatsAppTemplate[]> {
      if (!templates) return Promise.resolve([]);
      return templates.list();
    },
  };
}
