// Whether the public URL is one a customer's phone can open. Shared by the server (checklist, `nearcast doctor`,
// the CLI's poster warning, the start-up log) and the web UI (QR modal, poster page, Settings).

/** What the owner is told when the link on the QR code only works inside their own network. */
export const UNREACHABLE_LINK_WARNING = "Phones outside this network cannot open this link";
/** How to fix it, said right after the warning. */
export const UNREACHABLE_LINK_FIX =
  "Set the public URL in Settings to the address customers reach this server at (for example https://deals.example.com), or start the server with NEARCAST_PUBLIC_URL.";

/** A host the internet cannot reach: loopback, unspecified, *.localhost, *.local, private and link-local ranges. */
export function isUnreachableFromInternet(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (h === "localhost" || h.endsWith(".localhost") || h.endsWith(".local") || h === "::1" || h === "::" || h === "0.0.0.0") return true;
  if (!h.includes(".") && !h.includes(":")) return true; // a bare name ("raspberrypi") resolves only on the LAN
  if (/^(fc|fd)[0-9a-f]{0,2}:/.test(h) || /^fe[89ab][0-9a-f]?:/.test(h)) return true; // IPv6 unique-local, link-local
  const m = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(h);
  if (!m) return false;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a === 127 || a === 10 || a === 0 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
}

/** True when phones outside the server's network cannot open links built on this URL. */
export function isPrivateLink(url: string): boolean {
  try {
    return isUnreachableFromInternet(new URL(url).hostname);
  } catch {
    return true;
  }
}
