// The sample messages and the monthly volume of a registration kit, from what the business really sends.
import type { BroadcastRow } from "../../repos/broadcasts.ts";
import { sampleDealText } from "../../schemas/poster-text.ts";
import { MONTHLY_VOLUME_TIERS, SAMPLE_STOP } from "../../schemas/registration.ts";
import { sampleIsCompliant } from "./program-lint.ts";

/** Reviewers want two to five samples; the newest real ones first. */
const MAX_SAMPLES = 3;
/** How many of the newest broadcasts the samples are chosen from (and the skipped ones counted in). */
export const RECENT_SAMPLES = 10;
/** How far back the broadcast frequency is counted. */
const MONTH_MS = 30 * 86_400_000;

interface SampleBusiness {
  name: string;
  sampleProductText: string;
  businessType?: { name: string } | null;
}

/**
 * The newest real broadcasts that name the business and say STOP (what carriers look for in a sample); when none
 * does, two made from the business's type and product, in the words of its poster. `skipped`: recent broadcasts
 * left out for lacking either.
 */
export function sampleMessages(business: SampleBusiness, newestFirst: string[]): { samples: string[]; skipped: number } {
  const recent = newestFirst.slice(0, RECENT_SAMPLES).map((t) => t.trim()).filter(Boolean);
  const real = recent.filter((t) => sampleIsCompliant(t, business.name)).slice(0, MAX_SAMPLES);
  const skipped = recent.filter((t) => !sampleIsCompliant(t, business.name)).length;
  if (real.length > 0) return { samples: real, skipped };
  const name = business.name.trim();
  const made = [`${name}: ${sampleDealText(business.businessType?.name)} ${SAMPLE_STOP}`];
  const product = business.sampleProductText.trim().replace(/[.!]+$/, "");
  if (product) made.push(`${name}: new this week, ${product}. Show this text in store. ${SAMPLE_STOP}`);
  return { samples: made, skipped };
}

/**
 * Texts a month: SMS subscribers times the broadcasts of the last 30 days, or, before the first broadcast, times the
 * most the sign-up promises (messages per week x 4).
 */
export function monthlyVolume(smsSubscribers: number, broadcasts: Pick<BroadcastRow, "createdAt" | "cancelledAt">[], messagesPerWeek: number, now: number) {
  const recent = broadcasts.filter((b) => b.createdAt.getTime() >= now - MONTH_MS && !b.cancelledAt).length;
  const perMonth = recent > 0 ? recent : messagesPerWeek * 4;
  const volume = smsSubscribers * perMonth;
  const basis =
    recent > 0
      ? `${smsSubscribers} SMS subscriber(s) x ${recent} broadcast(s) in the last 30 days`
      : `${smsSubscribers} SMS subscriber(s) x ${perMonth} a month (up to ${messagesPerWeek} per week, as the sign-up promises; no broadcast in the last 30 days)`;
  const tier = MONTHLY_VOLUME_TIERS.find((t) => t >= volume);
  return { volume, basis, tier: tier === undefined ? `${MONTHLY_VOLUME_TIERS.at(-1)!.toLocaleString("en-US")}+` : tier.toLocaleString("en-US") };
}
