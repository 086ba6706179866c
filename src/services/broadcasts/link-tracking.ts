// Link tracking at publish (issue 25): decided from the owner's TrackLinks, the text's URLs and the saved public URL
// (never a request's Host: the links go to other people), stored with the broadcast as track_links and its
// broadcast_links rows, in the caller's transaction. The dispatcher makes each delivery's short links from those.
import type { Repos } from "../../repos/index.ts";
import type { PublishInput } from "../../schemas/broadcast-input.ts";
import { type LinkTracking, linkTracking } from "../../schemas/link-tracking.ts";
import { urlsIn } from "../../schemas/tracked-text.ts";
import type { SettingsService } from "../settings.ts";

type PublicUrl = Pick<SettingsService, "savedPublicUrl">;

/** The input with trackLinks as it will be stored (on only when it applies), and what the answer says about it. */
export function withLinkTracking(settings: PublicUrl, input: PublishInput): { input: PublishInput; linkTracking?: LinkTracking } {
  const { base: _base, ...decided } = linkTracking(input.trackLinks, input.messageText, settings.savedPublicUrl());
  // A text without links says nothing about tracking: there is nothing to track.
  const said = urlsIn(input.messageText).length > 0 ? { linkTracking: decided } : {};
  return { input: { ...input, trackLinks: decided.on }, ...said };
}

/** A tracked broadcast's links, stored (or rewritten) with it. Call inside the transaction that writes the row. */
export function storeLinks(repos: Pick<Repos, "broadcastLinks">, broadcastId: number, text: string, tracked: boolean): void {
  repos.broadcastLinks.replace(broadcastId, tracked ? urlsIn(text) : []);
}

/**
 * A scheduled broadcast's new text: tracked when it was, or, when its old text had no link to track (so the owner's
 * choice was never stored), by the default (on) where a public URL is saved.
 */
export function trackingOfNewText(settings: PublicUrl, old: { trackLinks: boolean; messageText: string }, text: string): boolean {
  const requested = old.trackLinks || urlsIn(old.messageText).length === 0;
  return linkTracking(requested, text, settings.savedPublicUrl()).on;
}
