// The page where a person sees and manages their own subscriptions (/my-subscriptions?t=…). A HELP reply carries the
// link: a random token (128 bits, nothing guessable), of which only the SHA-256 is stored, for 30 days; each HELP
// makes a new one. The link is the person's proof of their number, so it is all the page asks for: its forms carry the
// token (no cookie, no session), which also makes them safe from another site's forged posts.
//
// Leaving a business here is recorded like a STOP for that business (source 'subscriptions-page'); leaving all of them
// is the STOP itself (opt-outs.ts optOutCustomer: every business on our number, until the person's START).
import type { Clock } from "../clock.ts";
import { hashToken, randomToken } from "../lib/tokens.ts";
import type { Repos } from "../repos/index.ts";
import type { ContactPreference } from "../schemas/customers.ts";
import type { OptOutsService } from "./opt-outs.ts";
import type { SettingsService } from "./settings.ts";

export const MY_SUBSCRIPTIONS_PATH = "/my-subscriptions";
export const LINK_DAYS = 30;
const LINK_MS = LINK_DAYS * 24 * 60 * 60 * 1000;
/** The consent events' source of what the person did on the page. */
export const PAGE_SOURCE = "subscriptions-page";

export interface MySubscription {
  businessId: number;
  businessName: string;
  channel: ContactPreference;
  /** Whether messages still come (active, or waiting for the person's YES); false once they left. */
  subscribed: boolean;
}

export type OpenedLink =
  | { state: "ok"; phone: string; subscriptions: MySubscription[] }
  | { state: "expired" }
  | { state: "unknown" };

export function createMySubscriptionsService(deps: {
  repos: Repos;
  clock: Clock;
  settings: Pick<SettingsService, "savedPublicUrl">;
  optOuts: Pick<OptOutsService, "optOutCustomer" | "optOutBusiness">;
}) {
  const { repos, clock } = deps;

  /** The customer a token opens, or why not. */
  function customerOf(token: unknown): { customerId: number } | { state: "expired" | "unknown" } {
    if (typeof token !== "string" || !/^[A-Za-z0-9_-]{10,100}$/.test(token)) return { state: "unknown" };
    const link = repos.subscriptionLinks.findByHash(hashToken(token));
    if (!link) return { state: "unknown" };
    if (link.expiresAt.getTime() <= clock.now().getTime()) return { state: "expired" };
    return { customerId: link.customerId };
  }

  function subscriptionsOf(customerId: number): MySubscription[] {
    return repos.subscriptions
      .listByCustomer(customerId)
      .filter((s) => s.status === "active" || s.status === "unconfirmed" || s.status === "unsubscribed")
      .map((s) => ({ businessId: s.businessId, businessName: s.businessName, channel: s.contactPreference, subscribed: s.status !== "unsubscribed" }));
  }

  return {
    /** A new link for this person on the saved public URL; null when no public URL is saved (nothing is stored). */
    linkFor(customerId: number): string | null {
      const base = deps.settings.savedPublicUrl();
      if (!base) return null;
      const token = randomToken(16);
      const now = clock.now();
      repos.subscriptionLinks.insert(customerId, hashToken(token), now, new Date(now.getTime() + LINK_MS));
      return `${base.replace(/\/+$/, "")}${MY_SUBSCRIPTIONS_PATH}?t=${token}`;
    },

    /** What the page shows for this token. */
    open(token: unknown): OpenedLink {
      const who = customerOf(token);
      if ("state" in who) return who;
      const customer = repos.customers.findById(who.customerId);
      if (!customer) return { state: "unknown" };
      return { state: "ok", phone: customer.phone, subscriptions: subscriptionsOf(who.customerId) };
    },

    /** Leaves one business (its id) or all of them ("all"). Answers the token's state: only "ok" changed anything. */
    unsubscribe(token: unknown, target: number | "all"): "ok" | "expired" | "unknown" {
      const who = customerOf(token);
      if ("state" in who) return who.state;
      const change = { source: PAGE_SOURCE, at: clock.now() };
      if (target === "all") deps.optOuts.optOutCustomer(who.customerId, { ...change, note: "Unsubscribed from all on the subscriptions page" });
      else deps.optOuts.optOutBusiness(who.customerId, target, { ...change, note: "Unsubscribed on the subscriptions page" });
      return "ok";
    },
  };
}

export type MySubscriptionsService = ReturnType<typeof createMySubscriptionsService>;
