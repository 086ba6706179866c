import * as v from "valibot";
import { businessIdField, contactPreferenceField, phoneField } from "./customer-admin.ts";
import type { ContactPreference } from "./customers.ts";
export { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "./subscriptions-types.ts";

/** Where a visitor's subscription came from: a scanned QR poster or the public business list. */
export const PUBLIC_SOURCES = ["qr", "list"] as const;
export type PublicSource = (typeof PUBLIC_SOURCES)[number];

export const subscribeSchema = v.object({
  businessId: businessIdField("Business ID is required."),
  phone: phoneField,
  contactPreference: contactPreferenceField,
  source: v.optional(v.picklist(PUBLIC_SOURCES, "Source must be qr or list."), "qr"),
});

export type SubscribeInput = v.InferOutput<typeof subscribeSchema>;

/** POST /api/subscription/Subscribe answers with the business's success message. */
export interface SubscribeResponse {
  message: string;
}

/** The page's ?src= value, reduced to a source the API accepts (anything else is a QR scan, the default). */
export function publicSource(raw: string | null | undefined): PublicSource {
  return raw === "list" ? "list" : "qr";
}

/** Accept/DeclineSubscriptionRequest body: which person's pending request to which of the owner's businesses. */
export const subscriptionRequestSchema = v.object({
  customerId: businessIdField("Customer ID is required."),
  businessId: businessIdField("Business ID is required."),
});

/**
 * GET /api/customer/GetSubscriptionRequests: a person the owner had removed asked, on the public page, to subscribe
 * again. requestedAt is ISO 8601.
 */
export interface SubscriptionRequestView {
  customerId: number;
  businessId: number;
  businessName: string;
  phone: string;
  contactPreference: ContactPreference;
  requestedAt: string;
}
