// What a broadcast is given: the fields of PublishMessageToAllCustomers (now or scheduled), UpdateScheduledBroadcast,
// POST /api/broadcast/Estimate and SendTest, with their rules and the spec's texts. The services check their input
// with these schemas, the routes read each key from the form (as `BusinessId` or `businessId`), and the CLI builds
// the same objects: a field added here reaches all of them. A 400 names the one field at fault as the form names it
// (BusinessId for businessId): the first in the order below, as the API has always answered.
import * as v from "valibot";
import { MAX_SCHEDULE_DAYS } from "./broadcasts.ts";
import { calendarDate, COUPON_CODE_INVALID, COUPON_EXPIRES_INVALID, normalCouponCode, SHARED_COUPON_PATTERN, UNIQUE_COUPONS_INVALID } from "./coupons.ts";
import { ID_TEXT } from "./ids.ts";
import { requiredText } from "./text.ts";
import { BROADCAST_INVALID_IMAGE, MESSAGE_REQUIRED } from "./texts.ts";

/** Twilio's limit for one (concatenated) message body. */
export const MAX_BODY_LENGTH = 1600;

// Spec section 5 and 8.
export const BUSINESS_ID_REQUIRED = "Business ID is required.";
export const BUSINESS_ID_INVALID = "Business ID must be a positive whole number.";
export const MESSAGE_TOO_LONG = `Message text cannot exceed ${MAX_BODY_LENGTH} characters.`;
export const CONFIRM_INVALID = "Confirm must be true or false.";
export const TRACK_LINKS_INVALID = "TrackLinks must be true or false.";
// Scheduling (issue 11 item 5).
export const SCHEDULED_FOR_INVALID =
  "ScheduledFor must be a date and time with its UTC offset, e.g. 2026-11-24T09:00:00-05:00.";
export const SCHEDULED_FOR_PAST = "ScheduledFor must be in the future.";
export const SCHEDULED_FOR_TOO_FAR = `ScheduledFor must be at most ${MAX_SCHEDULE_DAYS} days ahead.`;
export const BROADCAST_ID_REQUIRED = "Broadcast ID is required.";
export const BROADCAST_ID_INVALID = "Broadcast ID must be a positive whole number.";
export const CHANNEL_INVALID = "Channel must be SMS or WhatsApp.";

/** ISO 8601 date and time WITH an offset (Z or ±HH:MM): a time without one would depend on the server's zone. */
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** An optional field typed as callers give it, that takes any value and says what becomes of it (`read`): for
 * fields whose every value means something, or whose checks come later. */
const readAs = <T, O>(read: (raw: unknown) => O) =>
  v.pipe(
    // A default typed `never`: the key stays optional for callers but is always in the output (valibot leaves a key
    // optional in the output only when its default may be undefined).
    v.optional(v.custom<T>(() => true), () => undefined as never),
    v.transform((raw) => read(raw)),
  );

/** A record id as a number or its text; blank or missing is told `required`, anything else not an id `invalid`. */
const idField = (required: string, invalid: string) =>
  v.pipe(
    v.optional(v.union([v.string(required), v.number(required)], required), ""),
    v.transform((raw) => (typeof raw === "number" ? String(raw) : raw.trim())),
    v.nonEmpty(required),
    v.regex(ID_TEXT, invalid),
    v.transform(Number),
  );

const messageText = requiredText(MESSAGE_REQUIRED, MAX_BODY_LENGTH, MESSAGE_TOO_LONG);

/** A yes/no form field: true or false, or their text in any case; blank or absent is `absent`; anything else is
 * told `invalid`. */
const trueOrFalse = (invalid: string, absent: boolean) =>
  v.pipe(
    v.optional(v.nullable(v.union([v.boolean(), v.string()], invalid)), absent),
    v.transform((raw) => (typeof raw === "string" ? raw.trim().toLowerCase() : String(raw ?? absent))),
    v.check((s) => s === "true" || s === "false" || s === "", invalid),
    v.transform((s) => (s === "" ? absent : s === "true")),
  );

const confirm = trueOrFalse(CONFIRM_INVALID, false);
/** Links as short links on the public URL (issue 25). */
const trackLinks = trueOrFalse(TRACK_LINKS_INVALID, true);

/** The time a text names, when it is a real calendar time with its offset (Date.parse rolls 2026-02-30 over). */
function timeOf(text: string): number | null {
  const m = ISO_WITH_OFFSET.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, sec] = m.map(Number) as number[];
  const wall = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, Number.isNaN(sec) ? 0 : sec));
  const real = wall.getUTCFullYear() === y && wall.getUTCMonth() === mo! - 1 && wall.getUTCDate() === d &&
    wall.getUTCHours() === h && wall.getUTCMinutes() === mi;
  const at = Date.parse(text.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  return real && !Number.isNaN(at) ? at : null;
}

/** ISO 8601 with its offset -> {at (ms), text (as written)}; absent or blank -> undefined (now). Whether the time is
 * still ahead is the clock's business: scheduleProblem. */
const scheduledFor = v.pipe(
  v.optional(v.nullable(v.string(SCHEDULED_FOR_INVALID))),
  v.transform((raw) => (raw?.trim() ? { text: raw.trim(), at: timeOf(raw.trim()) } : undefined)),
  v.check((s) => s === undefined || s.at !== null, SCHEDULED_FOR_INVALID),
  v.transform((s) => s as { text: string; at: number } | undefined),
);

/** Why a schedule cannot be kept at `now` (in the past, or more than MAX_SCHEDULE_DAYS ahead); null when it can. */
export function scheduleProblem(at: number, now: number): string | null {
  if (at <= now) return SCHEDULED_FOR_PAST;
  return at > now + MAX_SCHEDULE_DAYS * 86_400_000 ? SCHEDULED_FOR_TOO_FAR : null;
}

/** ContentSid / ContentVariables as text, trimmed; absent: undefined, null: "" (none), not text: null. They are
 * checked against the account's templates later, after the business is known (templateChoice). */
const templateText = readAs<string | null, string | null | undefined>((raw) =>
  typeof raw === "string" ? raw.trim() : raw === undefined ? undefined : raw === null ? "" : null,
);

/** CouponCode: one code for everyone, as the owner types it (upper-cased); blank or absent is none. */
const couponCode = v.pipe(
  v.optional(v.nullable(v.string(COUPON_CODE_INVALID)), null),
  v.transform((raw) => (raw ? normalCouponCode(raw) : "")),
  v.check((s) => s === "" || SHARED_COUPON_PATTERN.test(s), COUPON_CODE_INVALID),
  v.transform((s) => (s === "" ? null : s)),
);

/** UniqueCoupons: one code per person, at {code}. */
const uniqueCoupons = trueOrFalse(UNIQUE_COUPONS_INVALID, false);

/** CouponExpires: a calendar date (YYYY-MM-DD), the offer's last day; blank or absent is none. Whether it is still
 * ahead, in the business's time zone, is the service's business (src/services/coupons/offer.ts). */
const couponExpires = v.pipe(
  v.optional(v.nullable(v.string(COUPON_EXPIRES_INVALID)), null),
  v.transform((raw) => raw?.trim() || null),
  v.check((s) => s === null || calendarDate(s) !== null, COUPON_EXPIRES_INVALID),
);

/** The image's bytes (read and size-capped by the route or the CLI); empty is none. */
const image = v.pipe(
  v.optional(v.nullable(v.custom<Uint8Array>((x) => x instanceof Uint8Array, BROADCAST_INVALID_IMAGE)), null),
  v.transform((bytes) => (bytes && bytes.length > 0 ? bytes : null)),
);

/** PublishMessageToAllCustomers and `nearcast broadcast send`: ScheduledFor set = a scheduled broadcast. */
export const publishSchema = v.object({
  businessId: idField(BUSINESS_ID_REQUIRED, BUSINESS_ID_INVALID),
  messageText,
  /** Send even when the same text went to the same business within 10 minutes. */
  confirm,
  scheduledFor,
  image,
  /** A WhatsApp template (HX…) for the WhatsApp recipients, and its variables (JSON object text). */
  contentSid: templateText,
  contentVariables: templateText,
  /** An offer (issue 25): a shared code, or a unique code per person at {code}, valid until CouponExpires. */
  couponCode,
  uniqueCoupons,
  couponExpires,
  trackLinks,
});
export type PublishBody = v.InferInput<typeof publishSchema>;
export type PublishInput = v.InferOutput<typeof publishSchema>;

/** The fields of a publish that steer it and are not shown back as given (the summary shows the rest). */
export const STEERING_FIELDS = ["confirm", "scheduledFor", "image", "contentSid", "contentVariables", "couponExpires"] as const;

/** UpdateScheduledBroadcast: what is left out (or blank text) stays; ContentSid "" drops the template. */
export const scheduleUpdateSchema = v.object({
  broadcastId: idField(BROADCAST_ID_REQUIRED, BROADCAST_ID_INVALID),
  messageText: v.pipe(
    readAs<string, string | undefined>((raw) => (typeof raw === "string" && raw.trim() !== "" ? raw.trim() : undefined)),
    v.check((s) => s === undefined || s.length <= MAX_BODY_LENGTH, MESSAGE_TOO_LONG),
  ),
  scheduledFor,
  contentSid: templateText,
  contentVariables: templateText,
});
export type ScheduleUpdateBody = v.InferInput<typeof scheduleUpdateSchema>;
export type ScheduleUpdate = v.InferOutput<typeof scheduleUpdateSchema>;

/** true, or "true"/"1"/"yes"/"on" in any case; anything else is false. */
const flag = readAs<boolean | string, boolean>(
  (raw) => raw === true || (typeof raw === "string" && ["true", "1", "yes", "on"].includes(raw.trim().toLowerCase())),
);

/** POST /api/broadcast/Estimate (JSON) and the CLI's confirm step. */
export const estimateSchema = v.object({
  businessId: idField(BUSINESS_ID_REQUIRED, BUSINESS_ID_INVALID),
  messageText,
  /** An image goes with it: each SMS becomes one MMS. */
  hasImage: flag,
  /** A WhatsApp template goes with it (it changes who on WhatsApp is skipped). */
  withTemplate: flag,
  /** The owner's Track link clicks choice: URLs count as short links when tracking applies. */
  trackLinks,
  /** A unique coupon per person: {code} counts as a code's length. */
  uniqueCoupons,
});
export type EstimateBody = v.InferInput<typeof estimateSchema>;

/** SendTest: one message to the owner's own phone. A value that is not text in Channel or ImagePath (a file part)
 * counts as left out, as the form reader always read it. */
export const testSendSchema = v.object({
  businessId: idField(BUSINESS_ID_REQUIRED, BUSINESS_ID_INVALID),
  messageText,
  channel: v.pipe(
    readAs<string, string>((raw) => (typeof raw === "string" ? raw.trim().toLowerCase() : "")),
    v.check((s) => s === "" || s === "sms" || s === "whatsapp", CHANNEL_INVALID),
    v.transform((s) => (s === "whatsapp" ? "whatsapp" : "sms") as "sms" | "whatsapp"),
  ),
  image,
  /** Or an image this owner already uploaded ("/uploads/<name>"). */
  imagePath: readAs<string, string | null>((raw) => (typeof raw === "string" && raw !== "" ? raw.trim() : null)),
  /** WhatsApp: the template the broadcast would use, so the test is what subscribers get (issue 23 item 6). */
  contentSid: templateText,
  contentVariables: templateText,
});
export type TestSendBody = v.InferInput<typeof testSendSchema>;

/** The name a field goes by in the forms and in a 400's `fields`: BusinessId for businessId. */
export const wireName = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1);
