// "Public URL" is green only once the address was seen working: it answered /api/health when this server asked it
// (a short fetch while the checklist is read, remembered for a minute), or Twilio fetched an image from it (an upload
// fetched with Twilio's user agent). Otherwise amber with the reason; a server cannot always reach itself by its
// public name (a router without hairpin NAT), so the line says that Twilio's word is the one that counts.
import type { Clock } from "../clock.ts";
import { minuteUtc } from "../lib/minute-utc.ts";
import type { Repos } from "../repos/index.ts";
import type { ChecklistItem } from "../schemas/checklist.ts";

export const REACH_TIMEOUT_MS = 3_000;
export const REACH_CACHE_MS = 60_000;
/** An internal settings row (not a setting): `{at, url}` of the last image Twilio fetched, and the public URL then. */
export const TWILIO_MEDIA_FETCH_KEY = "seen.twilioMediaFetch";

/** Twilio's fetcher of MediaUrl (and of webhooks) names itself "TwilioProxy/1.1". */
export const isTwilioFetcher = (userAgent: string | undefined) => /\bTwilioProxy\//i.test(userAgent ?? "");

// Names reserved for examples and tests (RFC 2606, RFC 6761): nobody can reach them, so they are not looked up.
const RESERVED_NAME = /(^|\.)(example\.(com|net|org)|example|test|invalid)$/i;

type Reach = { ok: true; how: string } | { ok: false; reason: string };

/** Why a fetch failed, in words: the system's code where it has one (no stack, no headers). */
function failure(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return `no answer within ${timeoutMs / 1000} s`;
  if (e?.code === "ENOTFOUND") return "the name does not resolve (ENOTFOUND)";
  if (e?.code === "ECONNREFUSED" || e?.code === "ConnectionRefused") return "the connection was refused (ECONNREFUSED)";
  return e?.code ? `${e.code}` : (e?.message ?? "the request failed");
}

async function askHealth(url: string, timeoutMs: number): Promise<Reach> {
  const host = new URL(url).hostname;
  if (RESERVED_NAME.test(host)) return { ok: false, reason: `${host} is a name reserved for examples, which nobody can reach` };
  try {
    const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: "application/json" } });
    const body = (await res.json().catch(() => null)) as { status?: string } | null;
    if (res.ok && body?.status === "ok") return { ok: true, how: "it answered /api/health when this server asked it" };
    return { ok: false, reason: res.ok ? "something answered /api/health, but not this server" : `/api/health answered HTTP ${res.status}` };
  } catch (err) {
    return { ok: false, reason: failure(err, timeoutMs) };
  }
}

export function createPublicUrlReach({ repos, clock, timeoutMs = REACH_TIMEOUT_MS }: { repos: Repos; clock: Clock; timeoutMs?: number }) {
  const asked = new Map<string, { at: number; reach: Reach }>();
  let lastMediaWrite = 0;

  function mediaFetchedFrom(url: string): string | null {
    try {
      const seen = JSON.parse(repos.settings.get(TWILIO_MEDIA_FETCH_KEY) ?? "null") as { at: string; url: string } | null;
      return seen?.url === url ? seen.at : null;
    } catch {
      return null;
    }
  }

  async function reach(url: string): Promise<Reach> {
    url = url.replace(/\/+$/, "");
    const fetchedAt = mediaFetchedFrom(url);
    if (fetchedAt) return { ok: true, how: `Twilio fetched an image from it ${minuteUtc(fetchedAt)}` };
    const now = clock.now().getTime();
    const known = asked.get(url);
    if (known && now - known.at < REACH_CACHE_MS) return known.reach;
    const answer = await askHealth(url, timeoutMs);
    asked.set(url, { at: now, reach: answer });
    return answer;
  }

  return {
    /** The public URL line, confirmed: a line the rules made green stays green only if the address was seen working. */
    async confirm(item: ChecklistItem, url: string | null): Promise<ChecklistItem> {
      if (item.status !== "green" || !url) return item;
      const r = await reach(url);
      if (r.ok) return { ...item, detail: `${url}: ${r.how}, so customers' phones can open the links and QR codes.` };
      return {
        ...item,
        status: "amber",
        detail: `We could not reach ${url} from this server: ${r.reason}. A server cannot always reach itself by its public name; if Twilio can, ignore this.`,
      };
    },

    /** Twilio fetched an upload: the public URL of the moment works from outside. At most one write a minute. */
    twilioFetchedMedia(url: string | null): void {
      const at = clock.now();
      if (!url || at.getTime() - lastMediaWrite < REACH_CACHE_MS) return;
      lastMediaWrite = at.getTime();
      repos.settings.save(TWILIO_MEDIA_FETCH_KEY, JSON.stringify({ at: at.toISOString(), url: url.replace(/\/+$/, "") }), at);
    },
  };
}
