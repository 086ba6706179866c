import type { ContactPreference } from "./customers.ts";

// The words a person agrees to. ONE function builds them for both the subscribe page (what is shown next to the
// button) and the server (what is stored with the subscription), so the record is exactly what was on screen.

function channelWords(contactPreference: ContactPreference | null | undefined): string {
  if (contactPreference === "WhatsApp") return "WhatsApp";
  if (contactPreference === "SMS") return "text message (SMS)";
  return "text message (SMS) or WhatsApp";
}

/** The consent line of the public subscribe page for one business and the chosen channel. */
export function consentText(businessName: string, contactPreference?: ContactPreference | null): string {
  return (
    `By subscribing, you agree to receive promotions, offers, deals and event news from ${businessName.trim()} ` +
    `by ${channelWords(contactPreference)} at this number. Subscribing is free; message and data rates may apply. ` +
    "Reply STOP at any time to unsubscribe."
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
