// Which of our addresses Twilio may be handed (issue 23, item 4): an image link (MediaUrl) and a status callback are
// fetched by Twilio from the internet, so a public URL that is missing or private (localhost, 10.x, 192.168.x, a bare
// host name...) would give it a link it can never open. Shared by the messenger, the refusal of an image, the doctor
// and the browser, so they all say the same.
import { isPrivateLink } from "./public-url.ts";

/**
 * The base Twilio may be given links on: the public URL when the internet can reach it; null when it is missing or
 * private. The one exception: a TWILIO_API_BASE on a loopback or private address (a fake Twilio in tests, on this very
 * network) can reach a private public URL too.
 */
export function twilioLinkBase(publicUrl: string | null, twilioApiBase: string): string | null {
  if (publicUrl === null || publicUrl.trim() === "") return null;
  return isPrivateLink(publicUrl) && !isPrivateLink(twilioApiBase) ? null : publicUrl;
}

/** Why an image cannot go to Twilio, naming the publicUrl setting and the fix; null when it can. */
export function imageLinkProblem(publicUrl: string | null, twilioApiBase: string): string | null {
  if (twilioLinkBase(publicUrl, twilioApiBase) !== null) return null;
  const why = publicUrl === null || publicUrl.trim() === ""
    ? "this server has no public address (publicUrl) yet"
    : `the public address (publicUrl) ${publicUrl} is private: only this network can reach it`;
  return `Twilio cannot fetch this image: ${why}. Set a public address (publicUrl) in Settings, or NEARCAST_PUBLIC_URL, so Twilio can fetch the image; or send without the image.`;
}
