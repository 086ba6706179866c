// What the owner's customer list says beside a number besides its channel: why it is never texted (the number rules
// of the moment), or why WhatsApp promotions never reach it (a WhatsApp subscriber with a US number). Shown, not
// acted on: such a subscriber is skipped for promotions with that reason, never texted by SMS instead.
import type { CustomerView } from "../schemas/customer-admin.ts";
import { storedNumberProblem } from "../schemas/subscribe-number.ts";
import { whatsappMarketingReachable } from "../schemas/whatsapp-marketing.ts";
import { WHATSAPP_NO_PROMOTIONS } from "../schemas/whatsapp-reach.ts";

/** The views with numberProblem and whatsappProblem set where there is one (absent otherwise). */
export function withNumberNotes(views: CustomerView[], allowedCountries: string[] | null): CustomerView[] {
  return views.map((v) => {
    const numberProblem = storedNumberProblem(v.phone, allowedCountries);
    if (numberProblem) return { ...v, numberProblem };
    if (v.contactPreference === "WhatsApp" && !whatsappMarketingReachable(v.phone)) return { ...v, whatsappProblem: WHATSAPP_NO_PROMOTIONS };
    return v;
  });
}
