// The account's WhatsApp templates, from Twilio's Content API: GET /v1/Content (paged: `contents`,
// `meta.next_page_url`) and, for each, GET /v1/Content/{sid}/ApprovalRequests (`whatsapp.status`, `category`,
// `rejection_reason`). Twilio serves these from content.twilio.com, not api.twilio.com: when TWILIO_API_BASE points
// elsewhere (a fake in tests), both hosts go there. Without Twilio, the sandbox has built-in demo templates.
import { type Clock, systemClock } from "../clock.ts";
import { placeholdersOf, type TemplateVariable, type WhatsAppTemplate } from "../schemas/whatsapp-templates.ts";
import { TimedOut, type TwilioConfig, TwilioError, twilioRequest } from "./twilio-rest.ts";
import { DEFAULT_TWILIO_API_BASE } from "./twilio.ts";

export const CONTENT_API_BASE = "https://content.twilio.com";
/** Long pages: most accounts have a handful of templates, so one request usually lists them all. */
const PAGE_SIZE = 100;
/** A runaway next_page_url chain stops here (5,000 templates). */
const MAX_PAGES = 50;
/** Approval look-ups at once (one per template). */
const CONCURRENCY = 5;

// The sandbox's demo templates (sids never valid at Twilio: they are not hex).
export const SANDBOX_TEXT_TEMPLATE_SID = "HXsandbox0000000000000000000offer1";
export const SANDBOX_MEDIA_TEMPLATE_SID = "HXsandbox0000000000000000000photo2";
/** The opt-in confirmation (a utility template): {{1}} the business name, {{2}} its messages per week. Use it as the
 * whatsappConfirmationTemplate setting in the sandbox. */
export const SANDBOX_CONFIRMATION_TEMPLATE_SID = "HXsandbox0000000000000000000optin3";

/** A demo template as Twilio would list it once approved: English, no media header unless it names one. */
function sandboxTemplate(
  t: Pick<WhatsAppTemplate, "sid" | "name" | "category" | "body"> & { examples: string[]; mediaUrl?: string },
): WhatsAppTemplate {
  const mediaUrl = t.mediaUrl ?? null;
  return {
    sid: t.sid,
    name: t.name,
    language: "en",
    category: t.category,
    body: t.body,
    variables: t.examples.map((example, i) => ({ key: String(i + 1), example })),
    mediaHeader: mediaUrl !== null,
    mediaVariable: mediaUrl ? (placeholdersOf(mediaUrl)[0] ?? null) : null,
    mediaUrl,
    status: "approved",
    rejectionReason: null,
  };
}

export const SANDBOX_TEMPLATES: readonly WhatsAppTemplate[] = [
  sandboxTemplate({
    sid: SANDBOX_TEXT_TEMPLATE_SID,
    name: "nearcast_offer",
    category: "MARKETING",
    body: "{{1}} has a new offer for you: {{2}}\nReply STOP to unsubscribe.",
    examples: ["Rosa's Bakery", "Fresh sourdough, 2 for $5 until noon!"],
  }),
  sandboxTemplate({
    sid: SANDBOX_MEDIA_TEMPLATE_SID,
    name: "nearcast_offer_photo",
    category: "MARKETING",
    body: "{{1}}: {{2}}\nReply STOP to unsubscribe.",
    examples: ["Rosa's Bakery", "Our new cinnamon rolls are out of the oven!"],
    mediaUrl: "https://nearcast.example/uploads/{{3}}",
  }),
  sandboxTemplate({
    sid: SANDBOX_CONFIRMATION_TEMPLATE_SID,
    name: "nearcast_optin_confirmation",
    category: "UTILITY",
    body: "You are subscribed to offers from {{1}}, up to {{2}} messages per week. Msg & data rates may apply. Reply STOP to cancel, HELP for help.",
    examples: ["Rosa's Bakery", "4"],
  }),
];

/** Where the Content API is: content.twilio.com for the real Twilio, else TWILIO_API_BASE itself (one fake for all). */
export function contentApiBase(apiBase: string): string {
  const base = apiBase.replace(/\/+$/, "");
  return base === DEFAULT_TWILIO_API_BASE ? CONTENT_API_BASE : base;
}

/** The Content API could not be read: no answer, or an error status. The message never holds credentials. */
export class ContentApiError extends Error {
  override name = "ContentApiError";
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** A Content resource -> a template (its approval filled in later). */
export function templateOf(content: Json): WhatsAppTemplate | null {
  const sid = str(content.sid);
  if (!sid) return null;
  const types = obj(content.types);
  const media = obj(types["twilio/media"]);
  const isMedia = Object.keys(media).length > 0;
  // The text a person reads: twilio/media's or twilio/text's body, else the first type that has one (card, …).
  const main = isMedia ? media : Object.keys(obj(types["twilio/text"])).length ? obj(types["twilio/text"]) : obj(Object.values(types)[0]);
  const body = str(main.body) ?? str(main.title) ?? "";
  const mediaUrls = isMedia && Array.isArray(media.media) ? media.media.filter((m): m is string => typeof m === "string") : [];
  const mediaUrl = mediaUrls[0] ?? null;
  const mediaVariable = mediaUrl ? (placeholdersOf(mediaUrl)[0] ?? null) : null;
  const examples = obj(content.variables);
  const keys = [...new Set([...Object.keys(examples), ...placeholdersOf(body)])].filter((k) => k !== mediaVariable);
  keys.sort((a, b) => (Number(a) || 0) - (Number(b) || 0) || a.localeCompare(b));
  const variables: TemplateVariable[] = keys.map((key) => ({ key, example: typeof examples[key] === "string" ? (examples[key] as string) : "" }));
  return {
    sid,
    name: str(content.friendly_name) ?? sid,
    language: str(content.language),
    category: null,
    body,
    variables,
    mediaHeader: isMedia,
    mediaVariable,
    mediaUrl,
    status: "unsubmitted",
    rejectionReason: null,
  };
}

function failure(err: unknown, what: string): ContentApiError {
  if (err instanceof TwilioError) return new ContentApiError(`Twilio answered ${err.status} to ${what}: ${err.message}`);
  if (err instanceof TimedOut) return new ContentApiError(`${err.message} (${what})`);
  return new ContentApiError(`Twilio could not be reached (${what}): ${err instanceof Error ? err.message : String(err)}`);
}

/** Every template of the account with its WhatsApp approval. Throws ContentApiError. */
export async function fetchTemplates(cfg: TwilioConfig, apiBase: string, timeoutMs: number, clock: Clock = systemClock): Promise<WhatsAppTemplate[]> {
  const base = contentApiBase(apiBase);
  const get = (url: string, what: string) =>
    twilioRequest(cfg, url, { method: "GET" }, timeoutMs, clock).catch((err: unknown) => {
      throw failure(err, what);
    });
  const templates: WhatsAppTemplate[] = [];
  let url: string | null = `${base}/v1/Content?PageSize=${PAGE_SIZE}`;
  for (let page = 0; url && page < MAX_PAGES; page++) {
    const answer: Json = await get(url, "the template list");
    for (const c of Array.isArray(answer.contents) ? answer.contents : []) {
      const t = templateOf(obj(c));
      if (t) templates.push(t);
    }
    const next = str(obj(answer.meta).next_page_url);
    // Twilio's next page is on its own host: keep its path and query, on our base (the fake in tests).
    url = next ? `${base}${new URL(next, base).pathname}${new URL(next, base).search}` : null;
  }
  for (let i = 0; i < templates.length; i += CONCURRENCY) {
    await Promise.all(
      templates.slice(i, i + CONCURRENCY).map(async (t) => {
        let approval: Json;
        try {
          approval = await twilioRequest(cfg, `${base}/v1/Content/${encodeURIComponent(t.sid)}/ApprovalRequests`, { method: "GET" }, timeoutMs, clock);
        } catch (err) {
          if (err instanceof TwilioError && err.status === 404) return; // never submitted to WhatsApp
          throw failure(err, `the approval of ${t.sid}`);
        }
        const wa = obj(approval.whatsapp);
        t.status = (str(wa.status) ?? "unsubmitted").toLowerCase();
        t.category = str(wa.category)?.toUpperCase() ?? null;
        t.rejectionReason = str(wa.rejection_reason);
      }),
    );
  }
  return templates;
}
