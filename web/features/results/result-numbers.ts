// The results page's headline numbers as the cards say them, from GetBroadcastResults' answer. Pure: the component
// tests and the page read the same sentences. A card says what is true ("Link tracking was off", "No offer") rather
// than a 0% that would read as a failure.
import type { BroadcastResults } from "../../../src/schemas/broadcast-results.ts";
import type { Card } from "./components/ResultCards.tsx";

export interface ResultCard extends Card {
  key: "recipients" | "delivered" | "failed" | "skipped" | "optOuts" | "cost" | "clicks" | "uniqueClickers" | "redemptions";
}

export const TRACKING_OFF = "Link tracking was off";
export const NO_OFFER = "No offer";
export const NOBODY_REACHED = "Nobody reached yet";

const count = (n: number) => n.toLocaleString("en-US");

/** 0.125 as "12.5%", 0.5 as "50%" (one decimal at most). */
export function percent(rate: number): string {
  return `${(Math.round(rate * 1000) / 10).toLocaleString("en-US")}%`;
}

/** US dollars as the owner reads a bill: "$0.77", under a cent to 4 decimals ("$0.0083"). */
export function money(usd: number): string {
  return `$${usd > 0 && usd < 0.01 ? usd.toFixed(4) : usd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

const share = (n: number, of: number) => (of > 0 ? `${percent(n / of)} of recipients` : undefined);

function costCard(r: BroadcastResults): ResultCard {
  const per = `${r.segmentsPerMessage} segment${r.segmentsPerMessage === 1 ? "" : "s"} per SMS`;
  if (r.cost === null) return { key: "cost", label: "Cost", value: "No cost", note: "Sandbox: nothing was billed", wordy: true };
  return { key: "cost", label: "Cost", value: money(r.cost), note: `${per}; your Twilio bill may differ` };
}

function clickCards(r: BroadcastResults): ResultCard[] {
  if (!r.trackLinks) {
    const off = { value: TRACKING_OFF, note: "Links went out as written, so clicks were not counted", wordy: true };
    return [
      { key: "clicks", label: "Clicks", ...off },
      { key: "uniqueClickers", label: "Unique clickers", ...off },
    ];
  }
  return [
    { key: "clicks", label: "Clicks", value: count(r.clicks), note: "Every tap on a link, repeats included" },
    {
      key: "uniqueClickers",
      label: "Unique clickers",
      value: count(r.uniqueClickers),
      note: r.clickRate === null ? NOBODY_REACHED : `${percent(r.clickRate)} click rate`,
    },
  ];
}

function redemptionCard(r: BroadcastResults): ResultCard {
  if (r.coupon.kind === null) return { key: "redemptions", label: "Redemptions", value: NO_OFFER, note: "This broadcast carried no coupon", wordy: true };
  const people = `${count(r.redeemers)} ${r.redeemers === 1 ? "person" : "people"}`;
  return {
    key: "redemptions",
    label: "Redemptions",
    value: count(r.redemptions),
    note: r.redemptionRate === null ? NOBODY_REACHED : `${percent(r.redemptionRate)} redemption rate (${people})`,
  };
}

/** The cards, in the order a message's story goes: who it went to, what reached them, what it cost, what came back. */
export function resultCards(r: BroadcastResults): ResultCard[] {
  const sending = r.queued + r.sent;
  return [
    { key: "recipients", label: "Recipients", value: count(r.recipients), note: r.queued > 0 ? `${count(r.queued)} still to send` : undefined },
    { key: "delivered", label: "Delivered", value: count(r.delivered), note: share(r.delivered, r.recipients) ?? (sending > 0 ? "Waiting for reports" : undefined) },
    { key: "failed", label: "Failed", value: count(r.failed), note: share(r.failed, r.recipients) },
    { key: "skipped", label: "Skipped", value: count(r.skipped), note: "Never sent" },
    { key: "optOuts", label: "Opt-outs in 72 h", value: count(r.optOuts), note: "Unsubscribed after this broadcast" },
    costCard(r),
    ...clickCards(r),
    redemptionCard(r),
  ];
}
