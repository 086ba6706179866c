import * as v from "valibot";
import { type Business, DEFAULT_MESSAGES_PER_WEEK, DEFAULT_QR_MESSAGE, DEFAULT_SUCCESS_MESSAGE, businessSchema } from "../../../src/schemas/businesses.ts";
import { sampleDealText } from "../../../src/schemas/poster-text.ts";
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
  };
}
