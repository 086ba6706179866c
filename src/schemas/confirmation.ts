// The opt-in confirmation (CTIA): the business, what and how often, "Msg & data rates may apply", and how to stop or
// get help. One GSM-7 segment: the business name gives way first (folded to GSM-7 and cut), the fixed parts always fit.
import { fitSeptets, toGsm7 } from "./gsm7-text.ts";
import { countSegments, GSM7_SINGLE } from "./sms-segments.ts";

export const CONFIRMATION_RATES = "Msg & data rates may apply.";
export const CONFIRMATION_STOP_HELP = "Reply STOP to cancel, HELP for help.";

export interface ConfirmationBusiness {
  name: string;
  messagesPerWeek: number;
  /** Double opt-in: the text asks for YES, and nothing else is sent until it comes. */
  doubleOptIn: boolean;
}

const frequency = (n: number) => `up to ${n} msg${n === 1 ? "" : "s"}/week`;

export function confirmationText(b: ConfirmationBusiness): string {
  const build = (name: string) =>
    b.doubleOptIn
      ? `${name}: reply YES to get promotions by text, ${frequency(b.messagesPerWeek)}. ${CONFIRMATION_RATES} ${CONFIRMATION_STOP_HELP}`
      : `${name}: you're subscribed to promotions, ${frequency(b.messagesPerWeek)}. ${CONFIRMATION_RATES} ${CONFIRMATION_STOP_HELP}`;
  const room = GSM7_SINGLE - countSegments(build("")).characters;
  return build(fitSeptets(toGsm7(b.name), room) || "Nearcast");
}

/** The variables of the WhatsApp utility template for confirmations (setting whatsappConfirmationTemplate):
 * {{1}} the business name, {{2}} the messages per week. */
export function confirmationTemplateVariables(b: ConfirmationBusiness): string {
  return JSON.stringify({ "1": b.name.trim(), "2": String(b.messagesPerWeek) });
}
