import type { ContactPreference } from "./customers.ts";

// The words a person agrees to. ONE function builds them for both the subscribe page (what is shown next to the
// button) and the server (what is stored with the subscription), so the record is exactly what was on screen. The
// posters print the same programme words and disclosure (poster-text.ts posterDisclosure).

function channelWords(contactPreference: ContactPreference | null | undefined): string {
  if (contactPreference === "WhatsApp") return "WhatsApp";
  if (contactPreference === "SMS") return "SMS";
  return "SMS/WhatsApp";
}

/** What a business tells people where they give consent: its name (the programme's brand) and how often it sends. */
export interface ConsentBusiness {
  name: string;
  messagesPerWeek: number;
}

/** The last sentence of the consent text; the subscribe page links its two names to /terms and /privacy. */
export const CONSENT_LEGAL = "See our Terms and Privacy Policy.";

/** The carrier disclosure (CTIA) every place consent is given repeats. */
export const RATES_STOP_HELP = "Msg & data rates may apply. Reply STOP to cancel, HELP for help.";

/** "recurring promotional messages by SMS/WhatsApp, up to 4 per week" */
export function programmeWords(messagesPerWeek: number, contactPreference?: ContactPreference | null): string {
  return `recurring promotional messages by ${channelWords(contactPreference)}, up to ${messagesPerWeek} per week`;
}

/** The same words as a sentence's start: "Recurring promotional messages by SMS/WhatsApp, up to 4 per week". */
export function programmeSentence(messagesPerWeek: number): string {
  const words = programmeWords(messagesPerWeek);
  return `${words[0]!.toUpperCase()}${words.slice(1)}`;
}

/** The consent text of the public subscribe page for one business and the chosen channel: shown next to the button
 * (pressing Subscribe is the consent; nothing is pre-checked) and stored, word for word, with the consent event. */
export function consentText(business: ConsentBusiness, contactPreference?: ContactPreference | null): string {
  return (
    `By subscribing, you agree to receive ${programmeWords(business.messagesPerWeek, contactPreference)}, from ` +
    `${business.name.trim()} at this number. Consent is not a condition of purchase. ${RATES_STOP_HELP} ${CONSENT_LEGAL}`
  );
}

/** What is recorded when a business owner adds a person by hand (the owner vouches for the consent). */
export function manualConsentText(businessName: string, ownerId: number): string {
  return `Added by the business owner (user #${ownerId}) to ${businessName.trim()}; the owner is responsible for the person's consent.`;
}

/** What is recorded for a row of a CSV import run from the command line. */
export function importConsentText(businessName: string, fileName: string): string {
  return `Imported from ${fileName} with the nearcast CLI into ${businessName.trim()}; the operator is responsible for the person's consent.`;
}

/** What is recorded when the owner removes a person from their list. */
export function removalText(ownerId: number): string {
  return `Removed by the business owner (user #${ownerId}).`;
}

/** What is recorded when the owner accepts a removed person's request to subscribe again. */
export function acceptedRequestText(ownerId: number, personConsent: string): string {
  return `Request to subscribe again accepted by the business owner (user #${ownerId}). The person agreed to: ${personConsent}`;
}

/** What is recorded when the owner declines it. */
export function declinedRequestText(ownerId: number): string {
  return `Request to subscribe again declined by the business owner (user #${ownerId}).`;
}
