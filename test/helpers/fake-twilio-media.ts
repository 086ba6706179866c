// The fake Twilio's media of incoming messages (MMS pictures, WhatsApp photos). As on Twilio with "HTTP Basic
// Authentication for media access" on: GET /2010-04-01/Accounts/{AC}/Messages/{MM}/Media/{ME} wants the account's
// credentials (401 otherwise) and answers 307 to the file in its store, which is served without them.
let counter = 0;

export interface FakeMediaFile {
  bytes: Uint8Array;
  contentType: string;
}

export function createFakeMedia(accountSid: string) {
  const files = new Map<string, FakeMediaFile>();
  /** Who fetched what: the media path and whether credentials came with it. */
  const fetches: { path: string; authorized: boolean }[] = [];
  return {
    fetches,
    /** Stores a file; its media URL path (after the API's base URL) for a MediaUrlN. */
    add(bytes: Uint8Array, contentType: string): string {
      counter += 1;
      const me = `ME${counter.toString(16).padStart(32, "0")}`;
      files.set(me, { bytes, contentType });
      return `/2010-04-01/Accounts/${accountSid}/Messages/MM${"0".repeat(32)}/Media/${me}`;
    },
    /** The answer for a media or store path; null for any other path. */
    serve(url: URL, authorized: boolean): Response | null {
      const store = /^\/fake-media-store\/(ME\w+)$/.exec(url.pathname);
      if (store) {
        const file = files.get(store[1]!);
        return file ? new Response(Buffer.from(file.bytes), { headers: { "content-type": file.contentType } }) : new Response("no such file", { status: 404 });
      }
      const media = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\/[^/]+\/Media\/(ME\w+)$/.exec(url.pathname);
      if (!media) return null;
      fetches.push({ path: url.pathname, authorized });
      if (!authorized || media[1] !== accountSid) return Response.json({ code: 20003, message: "Authenticate", status: 401 }, { status: 401 });
      if (!files.has(media[2]!)) return Response.json({ code: 20404, message: "The requested resource was not found", status: 404 }, { status: 404 });
      return new Response(null, { status: 307, headers: { location: `/fake-media-store/${media[2]}` } });
    },
    clear(): void {
      files.clear();
      fetches.length = 0;
    },
  };
}

export type FakeMedia = ReturnType<typeof createFakeMedia>;
