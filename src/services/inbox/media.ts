// A reply's media (MMS pictures, WhatsApp photos): Twilio's MediaUrl0..N answer only with the account's credentials,
// so the server fetches each one (HTTP Basic with the account SID and auth token), keeps only pictures it recognises
// by their first bytes (never by the declared type), at most MAX_IMAGE_BYTES, under random names in
// <dataDir>/uploads/inbox (inside uploads, so a backup carries them and a restore puts them back; /uploads serves only
// files with an uploads row, never these), and serves them to the conversation's owner only (GET /api/inbox/Media/:id).
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TwilioConfig } from "../../messaging/twilio.ts";
import { SNIFF_BYTES, sniffImage } from "../../schemas/image-sniff.ts";
import { MAX_IMAGE_BYTES } from "../../schemas/images.ts";

/** At most this many media per message are fetched (Twilio allows 10 on MMS). */
export const MAX_MEDIA = 10;
const FETCH_TIMEOUT_MS = 15_000;

export interface FetchedMedia {
  fileName: string;
  contentType: string;
  size: number;
}

/** The MediaUrlN of the webhook's fields that point at the account's Twilio API (nothing else is fetched: the
 * credentials go only where Twilio is), in order. */
export function mediaUrls(params: Record<string, unknown>, apiBase: string): string[] {
  const origin = new URL(apiBase).origin;
  const count = Math.min(MAX_MEDIA, Number(params.NumMedia) || 0);
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const raw = params[`MediaUrl${i}`];
    if (typeof raw !== "string") continue;
    try {
      if (new URL(raw).origin === origin) urls.push(raw);
    } catch {
      // not a URL: skipped
    }
  }
  return urls;
}

/** The body, read up to `max` bytes; null when it is longer. */
async function boundedBytes(res: Response, max: number): Promise<Uint8Array | null> {
  const declared = Number(res.headers.get("content-length"));
  if (declared > max) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.length;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** GET with the account's credentials; Twilio answers a media URL with a redirect to its store, followed once
 * without them (a signed URL needs none, and the token must not leave Twilio). */
async function download(url: string, twilio: TwilioConfig): Promise<Response> {
  const auth = `Basic ${Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString("base64")}`;
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const first = await fetch(url, { headers: { authorization: auth }, redirect: "manual", signal });
  const location = first.status >= 300 && first.status < 400 ? first.headers.get("location") : null;
  if (!location) return first;
  await first.body?.cancel();
  return fetch(new URL(location, url), { redirect: "error", signal });
}

export function inboxMediaStore(dataDir: string) {
  const dir = join(dataDir, "uploads", "inbox");
  return {
    dir,
    path: (fileName: string) => join(dir, fileName),
    /** Fetches one media URL and keeps it when it is a picture within the size; null otherwise (why is logged by the
     * caller from the thrown error or the null). */
    async fetchOne(url: string, twilio: TwilioConfig): Promise<FetchedMedia | null> {
      const res = await download(url, twilio);
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`media answered HTTP ${res.status}`);
      }
      const bytes = await boundedBytes(res, MAX_IMAGE_BYTES);
      const kind = bytes ? sniffImage(bytes.subarray(0, SNIFF_BYTES)) : null;
      if (!bytes || !kind) return null;
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const fileName = `${randomBytes(16).toString("hex")}.${kind.ext}`;
      await writeFile(join(dir, fileName), bytes, { mode: 0o600 });
      return { fileName, contentType: kind.contentType, size: bytes.length };
    },
    /** The files older than `before` (ms): a fetch in progress writes its file a moment before its row. */
    filesOlderThan(before: number): string[] {
      let names: string[] = [];
      try {
        names = readdirSync(dir);
      } catch {
        return [];
      }
      return names.filter((name) => {
        try {
          return statSync(join(dir, name)).mtimeMs < before;
        } catch {
          return false;
        }
      });
    },
    remove(fileNames: string[]): void {
      for (const name of fileNames) {
        try {
          unlinkSync(join(dir, name));
        } catch {
          // already gone
        }
      }
    },
  };
}

export type InboxMediaStore = ReturnType<typeof inboxMediaStore>;
