import * as v from "valibot";
import { type Business, DEFAULT_MESSAGES_PER_WEEK, DEFAULT_SUCCESS_MESSAGE, businessSchema } from "../../../src/schemas/businesses.ts";
import { DEFAULT_QR_MESSAGE, sampleDealText } from "../../../src/schemas/poster-text.ts";
import type { FormValues } from "../../shared/components/form.tsx";

// The text fields; the two images are handled beside the form (a chosen file has no path until it is uploaded).
export const detailsSchema = v.omit(businessSchema, ["logoImagePath", "sampleImagePath"]);
type Values = FormValues<typeof detailsSchema>;

/** A new business's form. */
export const EMPTY: Values = {
  name: "",
  businessTypeId: "",
  address: "",
  phone: "",
  sampleProductText: "",
  qrMessage: "",
  successMessage: "",
  // Starts as the keyword deal of the type chosen (the spec's default before one is), see typeChosen in BusinessForm.tsx.
  posterOffer: sampleDealText(null),
  messagesPerWeek: String(DEFAULT_MESSAGES_PER_WEEK),
  timeZone: "",
  isActive: true,
  doubleOptIn: false,
  keyword: "",
};

/** The form of a stored business, to edit it. */
export function valuesOf(b: Business): Values {
  return {
    name: b.name,
    businessTypeId: String(b.businessTypeId),
    address: b.address,
    phone: b.phone,
    sampleProductText: b.sampleProductText,
    // The API answers the defaults for empty messages: show them as empty (the placeholder says what is used).
    qrMessage: b.qrMessage === DEFAULT_QR_MESSAGE ? "" : b.qrMessage,
    successMessage: b.successMessage === DEFAULT_SUCCESS_MESSAGE ? "" : b.successMessage,
    // Never set (saved before the field existed): the keyword deal its poster prints, so saving keeps the poster.
    posterOffer: b.posterOffer ?? sampleDealText(b.businessType?.name),
    messagesPerWeek: String(b.messagesPerWeek ?? DEFAULT_MESSAGES_PER_WEEK),
    timeZone: b.timeZone ?? "",
    isActive: b.isActive,
    doubleOptIn: b.doubleOptIn ?? false,
    keyword: b.keyword ?? "",
  };
}

/** The form's labels, to name what is still missing. */
const LABELS: Record<keyof Values, string> = {
  name: "Business Name",
  businessTypeId: "Business Type",
  address: "Address",
  phone: "Phone",
  sampleProductText: "Sample Product",
  posterOffer: "Poster Offer",
  messagesPerWeek: "Messages per week",
  timeZone: "Time Zone",
  qrMessage: "QR Message",
  successMessage: "Success Message",
  keyword: "Join Keyword",
  doubleOptIn: "Double opt-in",
  isActive: "Active",
};

/**
 * What a disabled Create / Update Business still needs, in the form's order: each field the schema refuses, with the
 * schema's own reason ("Business Name (Business name is required)"), then the sample image when none is chosen.
 */
export function missingFields(errors: Partial<Record<string, string>>, hasSample: boolean): string[] {
  const fields = (Object.keys(LABELS) as (keyof Values)[]).filter((key) => errors[key]).map((key) => `${LABELS[key]} (${errors[key]})`);
  return hasSample ? fields : [...fields, "a sample product image"];
}
