import * as v from "valibot";
import { CONTACT_PREFERENCES, CUSTOMER_PHONE, type Customer, stripPhone } from "./customers.ts";
import { positiveId } from "./ids.ts";
import type { SubscriptionStatus } from "./subscriptions-types.ts";
import { INVALID_PHONE, PHONE_REQUIRED, PREFERENCE_REQUIRED } from "./texts.ts";

export const SELECT_BUSINESS = "Please select a business";

// The spec's customer fields, hardened for API bodies: a missing key reads as "" and gets the spec's "required"
// text (a bare v.string() inside v.object() would answer with valibot's own "Invalid key: ..." wording).

export const phoneField = v.pipe(
  v.optional(v.string(PHONE_REQUIRED), ""),
  v.trim(),
  v.nonEmpty(PHONE_REQUIRED),
  v.check((s) => CUSTOMER_PHONE.test(stripPhone(s)), INVALID_PHONE),
);

export const contactPreferenceField = v.pipe(
  v.optional(v.string(PREFERENCE_REQUIRED), ""),
  v.picklist(CONTACT_PREFERENCES, PREFERENCE_REQUIRED),
);

/** A business id from JSON (number) or a form/query (its digits); a missing one gets the field's own message. */
export function businessIdField(message: string) {
  return v.optional(positiveId(message), "");
}

/** The Edit Customer form and UpdateCustomer body: phone and contact preference. */
export const editCustomerSchema = v.object({
  phone: phoneField,
  contactPreference: contactPreferenceField,
});

/** The owner's Add Customer form: the spec's fields plus which of the owner's businesses the person joins. */
export const createCustomerSchema = v.object({
  phone: phoneField,
  contactPreference: contactPreferenceField,
  businessId: businessIdField(SELECT_BUSINESS),
  // The opt-in confirmation text to the person added (CTIA); the owner may untick it (e.g. they just confirmed in
  // person). Left out: sent.
  sendConfirmation: v.optional(v.boolean("sendConfirmation must be true or false"), true),
});

export type CreateCustomerInput = v.InferOutput<typeof createCustomerSchema>;

/** A customer as the owner (or admin) sees it: the spec's fields plus the viewer's businesses they belong to. */
export interface CustomerView extends Customer {
  businesses: { id: number; name: string; status: SubscriptionStatus }[];
  /** Why this stored number is never texted (the number rules of the moment: allowed countries, mobile only);
   * absent or null when it may be. */
  numberProblem?: string | null;
  /** Why WhatsApp promotions never reach this WhatsApp subscriber (a US number); absent when they do. */
  whatsappProblem?: string | null;
}
