// The carrier registration kit (issue 23, item 1): everything Twilio's toll-free verification and 10DLC campaign
// forms ask for, filled in from what Nearcast holds, with what a reviewer would reject said plainly.
import type { Clock } from "../../clock.ts";
import type { Repos } from "../../repos/index.ts";
import { displayNumber, subscribeLink } from "../../schemas/poster-text.ts";
import { consentText } from "../../schemas/consent.ts";
import { programFacts } from "../../schemas/program-facts.ts";
import { isPrivateLink } from "../../schemas/public-url.ts";
import { programPath, programPosterPath } from "../../schemas/program-paths.ts";
import type { RegistrationKit } from "../../schemas/registration.ts";
import type { Business } from "../../schemas/businesses.ts";
import { type BusinessesService, toBusiness } from "../businesses.ts";
import { helpReply, keywordReplyTexts, keywordSpeaker, startReply, stopReply } from "../keyword-replies.ts";
import type { PostersService } from "../posters.ts";
import { managesAll, OPERATOR, type Principal } from "../principal.ts";
import type { SettingsService } from "../settings.ts";
import { lintProgram } from "./program-lint.ts";
import { monthlyVolume, RECENT_SAMPLES, sampleMessages } from "./samples.ts";
import { senderStatus } from "./sender.ts";

/** The kit's first problem while no public URL is saved: every link a reviewer needs would point nowhere. */
export const KIT_NEEDS_PUBLIC_URL =
  "No public URL is saved, so the program page, poster, terms and privacy URLs are missing: set it in Settings (or `nearcast settings set publicUrl https://...`) and open the kit again.";

export interface RegistrationDeps {
  repos: Repos;
  clock: Clock;
  settings: Pick<SettingsService, "current" | "savedPublicUrl">;
  businesses: Pick<BusinessesService, "get" | "getPublic">;
  posters: Pick<PostersService, "forUser">;
}

/** The replies a texter gets: with Twilio answering (keywordReplies "twilio"), the texts to paste into its Advanced
 * Opt-Out; with Nearcast answering, Nearcast's own. Both name the number's one business, else the brand. */
function keywordsOf(repos: Repos, s: ReturnType<SettingsService["current"]>, b: Business): RegistrationKit["keywords"] {
  const speaker = keywordSpeaker(repos, s);
  // The join keyword is Nearcast's to answer (no OptOutType): its reply is the opt-in confirmation.
  const join = b.keyword ? [{ keyword: b.keyword, reply: programFacts(b).confirmation }] : [];
  if (s.keywordReplies === "twilio") {
    const texts = keywordReplyTexts(speaker);
    return [{ keyword: "STOP", reply: texts.stop }, { keyword: "START", reply: texts.start }, { keyword: "HELP", reply: texts.help }, ...join];
  }
  return [
    { keyword: "STOP", reply: stopReply(speaker.name) },
    { keyword: "START", reply: startReply([b.name], s.brandName) },
    { keyword: "HELP", reply: helpReply({ name: b.name, phone: b.phone }, s.brandName) },
    ...join,
  ];
}

function descriptionOf(b: Business, s: { frequency: string }): string {
  const type = b.businessType?.name ? `${b.businessType.name.toLowerCase()} ` : "";
  return (
    `${b.name.trim()} is a local ${type}business at ${b.address.trim()}. It texts customers who asked for them its promotions: ` +
    `offers, deals, flash sales, new products and events. ${s.frequency}. People join on its subscribe page and stop at any time by replying STOP.`
  );
}

function optInWords(b: Business, facts: ReturnType<typeof programFacts>, subscribeUrl: string, programUrl: string | null, smsNumber: string | null): string {
  const yes = b.doubleOptIn ? " They must reply YES before anything else is sent." : "";
  const join =
    b.keyword && smsNumber
      ? ` Or they text the keyword ${b.keyword} to ${displayNumber(smsNumber)}, as the poster and subscribe page say; the text itself is recorded as their consent and gets the same confirmation.`
      : "";
  return (
    `Customers scan the QR code on the poster displayed at ${b.name.trim()} (${b.address.trim()}), or open ${subscribeUrl}, type their ` +
    `mobile number and press Subscribe; nothing is pre-checked and consent is not a condition of purchase. The consent text next ` +
    `to the button reads: "${facts.consent}" They then receive: "${facts.confirmation}"${yes}${join}` +
    (programUrl ? ` The whole programme, with the poster, is public at ${programUrl}.` : "")
  );
}

/** Public posters kept rendered (~10 KB each). */
const POSTER_CACHE_SIZE = 50;

export function createRegistrationService({ repos, clock, settings, businesses, posters }: RegistrationDeps) {
  const posterCache = new Map<string, Promise<{ pdf: Uint8Array; fileName: string }>>();
  /** The programme's words and samples, and what a reviewer would reject in them. */
  function programOf(b: Business, newestTexts = repos.broadcasts.listByBusiness(b.id, RECENT_SAMPLES).map((r) => r.messageText)) {
    const { samples, skipped } = sampleMessages(b, newestTexts);
    const lint = lintProgram({ businessName: b.name, messagesPerWeek: b.messagesPerWeek, consent: consentText(b), samples, skippedBroadcasts: skipped });
    return { samples, lint };
  }

  function urlProblems(b: Business, base: string | null): string[] {
    const problems: string[] = [];
    if (base === null) problems.push(KIT_NEEDS_PUBLIC_URL);
    else if (isPrivateLink(base)) problems.push(`The public URL ${base} cannot be opened from outside this network, so reviewers cannot see the program page: set the server's public address in Settings.`);
    if (!b.isActive) problems.push(`${b.name.trim()} is inactive, so its program page and poster are not public: make it active in My Business.`);
    return problems;
  }

  function kit(actor: Principal, businessId: number): RegistrationKit {
    const b = businesses.get(actor, businessId);
    const s = settings.current();
    const base = settings.savedPublicUrl();
    const at = (path: string) => (base === null ? null : `${base}${path}`);
    const facts = programFacts(b);
    const { samples, lint } = programOf(b);
    const lastMonth = repos.broadcasts.listByBusiness(b.id, 100);
    const volume = monthlyVolume(repos.broadcasts.subscriberCounts(b.id).sms, lastMonth, b.messagesPerWeek, clock.now().getTime());
    const programUrl = at(programPath(b.id));
    return {
      businessId: b.id,
      businessName: b.name,
      useCase: "MARKETING",
      description: descriptionOf(b, facts),
      optInType: "WEB_FORM",
      optInDescription: optInWords(b, facts, subscribeLink(base ?? "", b.id), programUrl, s.twilio?.from ?? null),
      optInImageUrl: at(programPosterPath(b.id)),
      programUrl,
      privacyUrl: at("/privacy"),
      termsUrl: at("/terms"),
      sampleMessages: samples,
      monthlyVolume: volume.volume,
      monthlyVolumeTier: volume.tier,
      monthlyVolumeBasis: volume.basis,
      keywords: keywordsOf(repos, s, b),
      sender: senderStatus(s),
      problems: [...urlProblems(b, base), ...lint],
    };
  }

  return {
    /** The kit of a business the actor manages (the owner's, an admin's, the operator's); another's is NotFoundError. */
    kit,
    /** The programme problems of every active business (admin or operator; the public URL has its own line). */
    lintActive(actor: Principal): { businessId: number; name: string; problems: string[] }[] {
      if (!managesAll(actor)) return [];
      const texts = repos.broadcasts.recentTextsByBusiness(RECENT_SAMPLES);
      return repos.businesses.listActive().map((row) => ({ businessId: row.id, name: row.name, problems: programOf(toBusiness(row), texts.get(row.id) ?? []).lint }));
    },
    /** The poster PDF of an active business, for anyone: it hangs on the shop's wall, and reviewers must see it. */
    publicPoster(businessId: number): Promise<{ pdf: Uint8Array; fileName: string }> {
      // Rendered once per version of the business (and public URL), not per request: anyone may ask for it, and a
      // render costs ~60 ms of the server's one thread. A new logo is a new upload path, so a new key.
      const key = JSON.stringify([businesses.getPublic(businessId), settings.savedPublicUrl()]);
      const cached = posterCache.get(key);
      if (cached) return cached;
      const made = posters.forUser(OPERATOR, businessId);
      posterCache.set(key, made);
      made.catch(() => posterCache.delete(key));
      if (posterCache.size > POSTER_CACHE_SIZE) posterCache.delete(posterCache.keys().next().value!);
      return made;
    },
  };
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;
