import * as v from "valibot";
import { keywordField } from "./join-keyword.ts";
import { boundedText, requiredText, text } from "./text.ts";
import { TIME_ZONE_UNKNOWN, timeZoneName } from "./time-zones.ts";

export const DEFAULT_SUCCESS_MESSAGE =
  "Congratulations! Your phone number is Successfully Subscribed, you will be notified when we have new deals!";

export const DEFAULT_MESSAGES_PER_WEEK = 4;
export const MAX_MESSAGES_PER_WEEK = 50;
export const MESSAGES_PER_WEEK_RANGE = `Messages per week must be a whole number from 1 to ${MAX_MESSAGES_PER_WEEK}`;

// US-style: optional +1, optional separators and parentheses, 10 digits.
export const US_PHONE = /^(\+?1[\s.-]?)?(\(\d{3}\)|\d{3})[\s.-]?\d{3}[\s.-]?\d{4}$/;

const optionalMessage = v.optional(
  v.pipe(
    v.nullable(v.string("Message must be text"), ""),
    v.transform((s) => (s ?? "").trim()),
    v.maxLength(200, "Message cannot exceed 200 characters"),
  ),
  "",
);

const imagePath = v.optional(v.nullable(v.pipe(v.string("Image path must be text"), v.trim(), v.maxLength(300, "Image path is too long"))), null);


export const businessSchema = v.object({
  name: boundedText("Business name is required", [2, "Name must be at least 2 characters long"], [200, "Name cannot exceed 200 characters"]),
  businessTypeId: v.pipe(
    v.optional(
      v.union([v.number(), v.pipe(v.string(), v.trim(), v.nonEmpty("Business type is required"), v.transform(Number))], "Business type is required"),
      "",
    ),
    v.integer("Business type is required"),
    v.minValue(1, "Business type is required"),
  ),
  address: boundedText(
    "Business address is required",
    [5, "Address must be at least 5 characters long"],
    [500, "Address cannot exceed 500 characters"],
  ),
  phone: v.pipe(
    text("Phone number is required"),
    v.trim(),
    v.nonEmpty("Phone number is required"),
    v.regex(US_PHONE, "Please enter a valid phone number"),
  ),
  sampleProductText: requiredText("Sample product description is required", 100, "Description cannot exceed 100 characters"),
  qrMessage: optionalMessage,
  successMessage: optionalMessage,
  // Left out or null: the keyword deal of the business type; "": no offer on the poster (see posterOfferDeal).
  posterOffer: v.optional(
    v.nullable(v.pipe(v.string("Offer must be text"), v.trim(), v.maxLength(100, "Offer cannot exceed 100 characters"))),
    null,
  ),
  // "Up to N messages per week": the frequency customers are told where they give consent (CTIA). A form sends text.
  messagesPerWeek: v.pipe(
    v.optional(
      v.union(
        [v.number(MESSAGES_PER_WEEK_RANGE), v.pipe(v.string(MESSAGES_PER_WEEK_RANGE), v.trim(), v.regex(/^\d{1,3}$/, MESSAGES_PER_WEEK_RANGE), v.transform(Number))],
        MESSAGES_PER_WEEK_RANGE,
      ),
      DEFAULT_MESSAGES_PER_WEEK,
    ),
    v.integer(MESSAGES_PER_WEEK_RANGE),
    v.minValue(1, MESSAGES_PER_WEEK_RANGE),
    v.maxValue(MAX_MESSAGES_PER_WEEK, MESSAGES_PER_WEEK_RANGE),
  ),
  // Quiet hours wait by this IANA zone for a customer whose number does not tell theirs; empty or null: the server's.
  timeZone: v.pipe(
    v.optional(v.nullable(v.string(TIME_ZONE_UNKNOWN)), null),
    v.transform((s) => s?.trim() || null),
    v.check((s) => s === null || timeZoneName(s) !== null, TIME_ZONE_UNKNOWN),
    v.transform((s) => s && timeZoneName(s)),
  ),
  isActive: v.optional(v.boolean("isActive must be true or false"), true),
  // Double opt-in: a person subscribing on the public page (or by START) is 'unconfirmed' until they reply YES.
  doubleOptIn: v.optional(v.boolean("doubleOptIn must be true or false"), false),
  // The word people text to the shop's number to join; null: none (join-keyword.ts has its rules).
  keyword: keywordField,
  logoImagePath: imagePath,
  sampleImagePath: v.pipe(
    v.optional(v.nullable(v.string("Sample product image is required")), null),
    v.transform((s) => (s ?? "").trim()),
    v.nonEmpty("Sample product image is required"),
    v.maxLength(300, "Image path is too long"),
  ),
}, "Request body must be a JSON object.");

export type BusinessInput = v.InferOutput<typeof businessSchema>;

/**
 * The owner's view of a business: the schema's fields as stored, with its id, its type, its owner and when it was
 * created. A business saved before the sample image was required may have none.
 */
export type Business = { id: number } & Omit<BusinessInput, "sampleImagePath"> & {
  sampleImagePath: string | null;
  businessType: { id: number; name: string } | null;
  createdAt: string;
  ownerId: number;
};

/**
 * What anyone may see of a business (public list, subscribe page, QR modal, poster), named one by one in the order
 * the API answers: a field or column added later stays private until it is listed here.
 */
export const PUBLIC_BUSINESS_KEYS = [
  "id",
  "name",
  "businessTypeId",
  "businessType",
  "address",
  "phone",
  "logoImagePath",
  "sampleImagePath",
  "sampleProductText",
  "qrMessage",
  "successMessage",
  "posterOffer",
  "messagesPerWeek",
  "doubleOptIn",
  "keyword",
  "isActive",
  "createdAt",
] as const satisfies readonly (keyof Business)[];

export type PublicBusiness = Pick<Business, (typeof PUBLIC_BUSINESS_KEYS)[number]>;
