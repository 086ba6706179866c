import * as v from "valibot";
import { INVALID_PHONE, PHONE_REQUIRED, PREFERENCE_REQUIRED } from "./texts.ts";

export const CONTACT_PREFERENCES = ["WhatsApp", "SMS"] as const;
export type ContactPreference = (typeof CONTACT_PREFERENCES)[number];

// Spec: optional plus, first digit 1-9, up to 16 digits in total. Spaces, dots, dashes and parentheses are
// tolerated on input and stripped before the check; the server then parses to E.164 with libphonenumber-js.
export const CUSTOMER_PHONE = /^\+?[1-9]\d{0,15}$/;

export function stripPhone(raw: string): string {
  return raw.replace(/[\s().-]/g, "");
}

export const customerPhone = v.pipe(
  v.string(PHONE_REQUIRED),
  v.trim(),
  v.nonEmpty(PHONE_REQUIRED),
  v.check((s) => CUSTOMER_PHONE.test(stripPhone(s)), INVALID_PHONE),
);

export const contactPreference = v.picklist(CONTACT_PREFERENCES, PREFERENCE_REQUIRED);

export const customerSchema = v.object({
  phone: customerPhone,
  contactPreference,
});

/** A customer as stored: the schema's fields with the id and creation date. */
export type Customer = { id: number } & v.InferOutput<typeof customerSchema> & { createdAt: string };
