// Whether a broadcast's links become short links on the shop's own address (issue 25): the owner's choice
// (TrackLinks), a URL in the text, and a saved public URL for the short links to live on. Pure, so the server's
// publish and estimate and the broadcast screen decide it the same way and say the same sentence.
import { urlsIn } from "./tracked-text.ts";

export const TRACKING_NEEDS_PUBLIC_URL = "Link tracking is off: no public URL is set (Settings → Public URL).";
export const TRACKING_TURNED_OFF = "Link tracking is off for this broadcast.";
export const TRACKING_NO_LINKS = "The text has no link to track.";

/** What the answer and the estimate say about it: `reason` when off. */
export interface LinkTracking {
  on: boolean;
  reason?: string;
}

/** The decision, with the short links' base (the saved public URL, no trailing slash) when on. */
export function linkTracking(requested: boolean, text: string, publicUrl: string | null): LinkTracking & { base: string | null } {
  if (!requested) return { on: false, reason: TRACKING_TURNED_OFF, base: null };
  if (urlsIn(text).length === 0) return { on: false, reason: TRACKING_NO_LINKS, base: null };
  if (!publicUrl) return { on: false, reason: TRACKING_NEEDS_PUBLIC_URL, base: null };
  return { on: true, base: publicUrl.replace(/\/+$/, "") };
}
