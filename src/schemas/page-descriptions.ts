// The meta description of each public page: the snippet a search engine or a link preview shows under the title.
// One list for the app (web/shared/paths.ts sets it per screen) and the pages rendered on the server
// (src/http/pages), so a page says the same whichever renders it. The brand is configurable, so none names it.

/** The site's own, as in web/index.html (a test keeps the two the same): home, and every page without its own. */
export const SITE_DESCRIPTION = "Get promotions, offers and deals from your favourite local businesses by SMS or WhatsApp.";

/** By path: the public pages a visitor may land on from outside. */
const PAGE_DESCRIPTIONS: Record<string, string> = {
  "/": SITE_DESCRIPTION,
  "/businesses": "Browse the local businesses near you and subscribe to their promotions, offers and deals by SMS or WhatsApp.",
  "/about": "How local shops send their promotions, offers and flash sales straight to their regulars' phones by SMS or WhatsApp.",
  "/faq": "Answers to common questions: subscribing to a shop's deals, SMS or WhatsApp, what it costs, your privacy and how to stop.",
  "/login": "Log in to send your business's promotions and deals to your subscribers by SMS or WhatsApp.",
  "/register": "Create an account for your business, put a QR code poster at the counter and send deals to your regulars.",
  "/forgot-password": "Forgot your password? Enter your email address and we will send you a link to choose a new one.",
  "/reset-password": "Choose a new password for your account, with the link from the email we sent you.",
  "/terms": "The terms of service for people who subscribe to a business's messages and for the businesses that send them.",
  "/privacy": "How phone numbers and data are handled: what is collected and why, that your number is never sold or shared, and how to have it deleted.",
};

/** The description of the page at `path` (no query), or the site's. */
export function pageDescription(path: string): string {
  return PAGE_DESCRIPTIONS[path] ?? SITE_DESCRIPTION;
}

/** A business's subscribe page (the one its poster's QR code opens). */
export function subscribeDescription(businessName: string): string {
  return `Get promotions, offers and deals from ${businessName} on your phone by SMS or WhatsApp. Free to join, leave any time.`;
}

/** A business's public text message program page. */
export function programDescription(businessName: string): string {
  return `The text message program of ${businessName}: how to join, how often it sends, rates, STOP and HELP.`;
}
