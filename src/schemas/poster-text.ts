// The words on a business's QR poster, shared by the print page (web/pages/PrintPoster.tsx) and the PDF poster
// (src/services/posters.ts) so both always say the same thing. Pure: no I/O.
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { programmeSentence, RATES_STOP_HELP } from "./consent.ts";
import { programPath } from "./program-paths.ts";

/** The poster's and the QR card's message when the owner has written none. */
export const DEFAULT_QR_MESSAGE = "Scan this QR code to get notified of promotions, offers and deals!";
/** Spec, section 2 (Printing): the deal text when no keyword matches. */
export const DEFAULT_DEAL_TEXT = "SPECIAL OFFER: 25% OFF your next purchase!";
/** Spec, section 1: the note every poster carries. */
export const UNSUBSCRIBE_NOTE = "To unsubscribe, reply with a Unsubscribe message";
/** The disclosure next to the poster's call to action (CTIA): what, how often, rates, STOP and HELP. */
export function posterDisclosure(messagesPerWeek: number): string {
  return `${programmeSentence(messagesPerWeek)}. ${RATES_STOP_HELP}`;
}

/** The printed addresses of the terms and privacy pages (a poster cannot link), and with `businessId` the
 * business's program page (what carriers' reviewers open, src/http/pages/program-page.tsx). */
export function legalLinks(baseUrl: string, businessId?: number): string {
  const base = baseUrl.replace(/\/+$/, "").replace(/^https?:\/\//, "");
  const program = businessId === undefined ? "" : ` · Program details: ${base}${programPath(businessId)}`;
  return `Terms: ${base}/terms · Privacy: ${base}/privacy${program}`;
}

/** The fixed words of the poster, one object for both renderings (the print page's markup and the PDF's layout). */
export const POSTER_WORDS = {
  headline: "Scan for deals!",
  subheadline: "Get our promotions, offers and flash sales sent straight to your phone.",
  steps: ["Scan the QR code", "Enter your number", "Get the deals"],
  linkLabel: "No camera? Visit",
  unsubscribeNote: UNSUBSCRIBE_NOTE,
  footer: "Powered by Nearcast",
} as const;

/** The software credit, the only place a poster says "Nearcast"; with a brand set, the brand comes first. */
export function posterFooter(brand: string): string {
  const name = brand.trim();
  return !name || name === "Nearcast" ? POSTER_WORDS.footer : `${name} · ${POSTER_WORDS.footer}`;
}

interface DealRule {
  /** Whole words (a trailing "s" also matches) or, for `prefix`, words starting with the keyword. */
  keywords: string[];
  prefix?: boolean;
  text: string;
}

// Checked in the order the spec lists them; the first match wins ("Beauty Shop" is a salon).
const DEAL_RULES: DealRule[] = [
  { keywords: ["restaurant", "pizza"], prefix: true, text: "TODAY'S TREAT: Buy one meal, get the second 50% OFF!" },
  { keywords: ["salon", "beauty"], prefix: true, text: "PAMPER DEAL: 20% OFF your next cut, color or treatment!" },
  { keywords: ["shop", "retail"], prefix: true, text: "SHOPPER'S DEAL: 15% OFF your entire purchase!" },
  { keywords: ["real estate"], text: "FREE HOME VALUATION: Find out what your home is worth today!" },
  { keywords: ["gym", "fitness"], prefix: true, text: "GET FIT: Your first week FREE, no strings attached!" },
  // "car" only as a word: "Pet Care" or "Cards & Gifts" are not garages.
  { keywords: ["auto", "car"], text: "CAR CARE DEAL: $20 OFF your next service or oil change!" },
];

function words(typeName: string): string[] {
  return typeName.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

function matches(rule: DealRule, typeName: string): boolean {
  const list = words(typeName);
  const phrase = ` ${list.join(" ")} `;
  return rule.keywords.some((kw) => {
    if (kw.includes(" ")) return phrase.includes(` ${kw} `) || phrase.includes(` ${kw}s `);
    if (rule.prefix) return list.some((w) => w.startsWith(kw));
    return list.some((w) => w === kw || w === `${kw}s` || (kw === "auto" && /^auto(motive|mobiles?|body)$/.test(w)));
  });
}

/** The sample deal printed on the poster, chosen by a keyword in the business type's name. */
export function sampleDealText(typeName: string | null | undefined): string {
  if (!typeName) return DEFAULT_DEAL_TEXT;
  return DEAL_RULES.find((rule) => matches(rule, typeName))?.text ?? DEFAULT_DEAL_TEXT;
}

/** Up to `max` initials of a business name ("Sunrise Bakery & Cafe" -> "SB"). */
export function initials(name: string, max = 2): string {
  const parts = name.trim().split(/\s+/).filter((p) => /[\p{L}\p{N}]/u.test(p));
  const letters = parts.map((p) => (p.match(/[\p{L}\p{N}]/u) ?? [""])[0]);
  return letters.slice(0, max).join("").toUpperCase() || "?";
}

/** Splits a deal text such as "SPECIAL OFFER: 25% OFF ..." into its label and the offer itself. */
export function splitDeal(text: string): { label: string; offer: string } {
  const i = text.indexOf(":");
  if (i <= 0 || i > 40) return { label: "", offer: text };
  return { label: text.slice(0, i).trim(), offer: text.slice(i + 1).trim() };
}

/** The deal a business's poster shows, from its type's name: the sample deal split into label and offer. */
export function posterDeal(typeName: string): { label: string; offer: string } {
  return splitDeal(sampleDealText(typeName));
}

/**
 * The offer a business's poster shows, or null for none. The owner's "Poster offer" decides: their words (split into
 * label and offer like the keyword texts); "" when they cleared it, so no offer line at all (never a silent keyword
 * text the owner chose to remove); null or absent only for a business never given one (saved before the field
 * existed, or by an API client that leaves it out), which keeps the keyword deal of its type it has always printed.
 */
export function posterOfferDeal(posterOffer: string | null | undefined, typeName: string): { label: string; offer: string } | null {
  if (posterOffer === null || posterOffer === undefined) return posterDeal(typeName);
  const text = posterOffer.trim();
  return text ? splitDeal(text) : null;
}

/** The subscription link printed and encoded on the poster. */
export function subscribeLink(baseUrl: string, businessId: number): string {
  return `${baseUrl.replace(/\/+$/, "")}/subscribe?id=${businessId}`;
}

/** A number as people read and type it: "+1 555 000 1111" (as given when libphonenumber cannot read it). */
export function displayNumber(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

/**
 * The second way to join, beside the QR code (issue 24): "or text BAGEL to +1 555 000 1111". Null without a keyword,
 * or without an SMS sender to text it to. The poster (print and PDF), the subscribe page and the program page say it.
 */
export function textToJoinLine(keyword: string | null | undefined, smsNumber: string | null | undefined): string | null {
  if (!keyword || !smsNumber) return null;
  return `or text ${keyword} to ${displayNumber(smsNumber)}`;
}
