// The answers to STOP, START and HELP, and who gives them. Twilio's Advanced Opt-Out answers these keywords itself
// (and then says so on the inbound request: OptOutType = STOP, START or HELP); with the keywordReplies setting
// "twilio" (the default) Nearcast records the keyword and stays quiet, so the person gets one text, not two. Where
// Twilio does not say it answered (Advanced Opt-Out off, the sandbox) or with "nearcast", Nearcast answers.
//
// Who speaks: the business whose number it is when the install's (shared) number belongs to one business, else the
// brand (the brandName setting). keywordReplyTexts() are the words to paste into Twilio's Advanced Opt-Out settings
// (shown by the setup checklist and the registration kit), so Twilio's replies still name the shop.
import type { Repos } from "../repos/index.ts";
import type { ChecklistItem } from "../schemas/checklist.ts";
import { fitSeptets, toGsm7 } from "../schemas/gsm7-text.ts";
import { type KeywordReplier, SETTING_DEFAULTS } from "../schemas/settings.ts";
import { countSegments, GSM7_MULTI, GSM7_SINGLE, isGsm7 } from "../schemas/sms-segments.ts";

const RATES = "Msg & data rates may apply.";
/** At most this many business names in one reply; the rest are counted. */
const MAX_NAMES = 5;

export const stopReply = (speaker: string) => `You have been unsubscribed from ${speaker} messages. Reply START to resubscribe.`;
export const notSubscribedReply = (brand: string) =>
  `You are not subscribed to any business on ${brand}. Scan a business's QR code to subscribe.`;
/** The replies with the default brand. */
export const STOP_REPLY = stopReply(SETTING_DEFAULTS.brandName);
export const NOT_SUBSCRIBED_REPLY = notSubscribedReply(SETTING_DEFAULTS.brandName);

function listNames(names: string[]): string {
  const unique = [...new Set(names.map((n) => n.trim()))];
  const shown = unique.slice(0, MAX_NAMES);
  const more = unique.length - shown.length;
  if (more > 0) return `${shown.join(", ")} and ${more} more`;
  if (shown.length <= 1) return shown.join("");
  return `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
}

export function startReply(names: string[], brand: string = SETTING_DEFAULTS.brandName): string {
  if (names.length === 0) return notSubscribedReply(brand);
  return `You are subscribed to ${brand} messages from ${listNames(names)}. ${RATES} Reply STOP to unsubscribe.`;
}

/** What a HELP reply names: the business, and the phone its customers can call. */
export interface HelpContact {
  name: string;
  phone: string;
}

/** One SMS segment: the HELP reply without a link never costs the person (or us) more than one message. */
export const HELP_MAX = GSM7_SINGLE;
/** With the link to the person's subscriptions page: at most two segments. */
export const HELP_MAX_WITH_LINK = 2 * GSM7_MULTI;

/**
 * HELP: who is writing (the business that messaged the person most recently, see repos.businesses.helpContactFor),
 * its phone, the link to their subscriptions page when there is one, and how to stop, in GSM-7: one segment without
 * the link, two with it (CTIA). The name gives way first, then the brand and the phone are capped, so the fixed parts
 * (rates, STOP) always fit; a link that is not GSM-7 or too long to leave room is left out.
 */
export function helpReply(business: HelpContact | undefined, brand: string = SETTING_DEFAULTS.brandName, link: string | null = null): string {
  const b = fitSeptets(toGsm7(brand), 24) || SETTING_DEFAULTS.brandName;
  if (!business) return `${b}: You are not subscribed to any business. ${RATES} Reply STOP to unsubscribe.`;
  const phone = fitSeptets(toGsm7(business.phone), 20);
  const contact = phone ? ` Contact: ${phone}.` : "";
  const manage = link && isGsm7(link) && link.length <= MAX_LINK ? ` Manage your subscriptions: ${link}` : "";
  const build = (name: string) => `${b}: You are subscribed to messages from ${name}.${contact}${manage} ${RATES} Reply STOP to unsubscribe.`;
  const room = (manage ? HELP_MAX_WITH_LINK : HELP_MAX) - countSegments(build("")).characters;
  return build(fitSeptets(toGsm7(business.name), room));
}

/** The longest link a HELP reply carries: the rest of the two segments keeps room for a name. */
const MAX_LINK = 120;

/** Who the keyword replies name: the one business of the number, or the brand; and how to reach them. */
export interface KeywordSpeaker {
  name: string;
  /** The business's phone, or the install's contact email; null for none. */
  contact: string | null;
}

/** The business whose number it is when the install's number belongs to one business, else the brand. */
export function keywordSpeaker(repos: Pick<Repos, "businesses">, settings: { brandName: string; contactEmail: string }): KeywordSpeaker {
  const only = repos.businesses.soleBusiness();
  if (only) return { name: only.name, contact: only.phone || settings.contactEmail };
  return { name: settings.brandName, contact: settings.contactEmail };
}

/** The texts to paste into Twilio's Advanced Opt-Out settings (each one GSM-7 segment), naming `speaker`. */
export function keywordReplyTexts(speaker: KeywordSpeaker): { stop: string; start: string; help: string } {
  const contact = speaker.contact ? ` Contact: ${fitSeptets(toGsm7(speaker.contact), 40)}.` : "";
  // The name gives way so each text stays one segment.
  const fit = (build: (name: string) => string) =>
    build(fitSeptets(toGsm7(speaker.name), GSM7_SINGLE - countSegments(build("")).characters) || SETTING_DEFAULTS.brandName);
  return {
    stop: fit(stopReply),
    start: fit((n) => `You are subscribed to ${n} messages again. ${RATES} Reply HELP for help, STOP to unsubscribe.`),
    help: fit((n) => `${n}: local deals by text.${contact} ${RATES} Reply STOP to unsubscribe.`),
  };
}

const OPT_OUT_TYPES = new Set(["STOP", "START", "HELP"]);

/** Whether Twilio answered this keyword itself: it says so (OptOutType), and the setting leaves the answer to it. */
export function twilioAnswered(optOutType: unknown, setting: KeywordReplier): boolean {
  return setting === "twilio" && typeof optOutType === "string" && OPT_OUT_TYPES.has(optOutType.trim().toUpperCase());
}

/**
 * The checklist's line (only with Twilio configured: in the sandbox nobody texts). With "twilio" it shows the texts to
 * paste into the Messaging Service's Advanced Opt-Out, so Twilio's replies name the shop; either way the person gets
 * one answer (Nearcast answers whenever Twilio does not say it did), so the line is green.
 */
export function keywordRepliesItem(setting: KeywordReplier, speaker: KeywordSpeaker): ChecklistItem {
  const title = "Keyword replies";
  if (setting === "nearcast") {
    return {
      id: "keywordReplies",
      status: "green",
      title,
      detail: `Nearcast answers STOP, START and HELP, naming ${speaker.name}; if Advanced Opt-Out is on in Twilio, empty its replies there so people get one text.`,
    };
  }
  const texts = keywordReplyTexts(speaker);
  return {
    id: "keywordReplies",
    status: "green",
    title,
    detail: `Twilio's Advanced Opt-Out answers STOP, START and HELP (Nearcast answers where it is off); so its replies name ${speaker.name}, paste into the Messaging Service's Advanced Opt-Out: STOP "${texts.stop}" START "${texts.start}" HELP "${texts.help}".`,
  };
}
