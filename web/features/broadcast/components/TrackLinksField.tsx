// "Track link clicks" (issue 25): each person's links go as their own short link on the shop's public URL, so the
// results can count who clicked. On by default; off, with the reason, while no public URL is set (the short links
// would have nowhere to live). The counter and the preview show the text as it will be sent.
import { useMemo, useState } from "react";
import { linkTracking, TRACKING_NEEDS_PUBLIC_URL } from "../../../../src/schemas/link-tracking.ts";
import { replaceUrls, SHORT_CODE_LENGTH, shortLink, urlsIn } from "../../../../src/schemas/tracked-text.ts";
import { site } from "../../../shared/state/site.ts";

/** A made-up code of the real length, for the preview's example short link. */
const EXAMPLE_CODE = "aB3dE9xZkQ7m".slice(0, SHORT_CODE_LENGTH);

/** The public URL short links are made on: the one the server has (set in Settings or the environment), else null. */
function savedPublicUrl(): string | null {
  const info = site.value;
  return info && info.publicUrlSource !== "request" ? info.publicUrl : null;
}

/** The owner's choice, what it means for `text` now, and the text as each person will receive it. */
export function useTrackLinks(text: string) {
  const [requested, setRequested] = useState(true);
  const publicUrl = savedPublicUrl();
  const decided = useMemo(() => linkTracking(requested, text, publicUrl), [requested, text, publicUrl]);
  const asSent = useMemo(() => (decided.base ? replaceUrls(text, () => shortLink(decided.base!, EXAMPLE_CODE)) : text), [decided.base, text]);
  return { requested, setRequested, publicUrl, on: decided.on, base: decided.base, asSent };
}

export function TrackLinksField({ state, text, disabled }: { state: ReturnType<typeof useTrackLinks>; text: string; disabled?: boolean }) {
  const { requested, setRequested, publicUrl } = state;
  const noPublicUrl = publicUrl === null;
  const hasLinks = urlsIn(text).length > 0;
  const hint = noPublicUrl
    ? TRACKING_NEEDS_PUBLIC_URL
    : requested
      ? `${hasLinks ? "Each link goes" : "Links you add go"} as the person's own short link on ${shortLink(publicUrl, "…")}, so the results show who clicked.`
      : "Links go exactly as written; clicks are not counted.";
  return (
    <div className="bc-later" data-testid="track-links">
      <label className="checkbox bc-later-toggle">
        <input type="checkbox" name="TrackLinks" checked={requested && !noPublicUrl} disabled={disabled || noPublicUrl} aria-describedby="bc-track-links-hint" onChange={(e) => setRequested(e.currentTarget.checked)} />
        <span>Track link clicks</span>
      </label>
      <p id="bc-track-links-hint" className="field-hint">
        {hint}
      </p>
    </div>
  );
}
