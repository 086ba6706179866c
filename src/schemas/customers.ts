import * as v from "valibot";

export const CONTACT_PREFERENCES = ["WhatsApp", "SMS"] as const;
export type ContactPreference = (typeof CONTACT_PREFERENCES)[number];

// Spec: optional plus, first digit 1-9, up to 16 digits in total. Spaces, dots, dashes and parentheses are
// tolerated on input and stripped before the check; the server then parses to E.164 with libphonenumber-js.
export const CUSTOMER_PHONE = /^\+?[1-9]\d{0,15}$/;

export function stripPhone(raw: string): string {
  return raw.replace(/[\s().-]/g, "");
}

export const customerPhone = v.pipe(
  v.string("Phone number is required"),
  v.trim(),
  v.nonEmpty("Phone number is required"),
  v.check((s) => CUSTOMER_PHONE.test(stripPhone(s)), "Please enter a valid phone number"),
);

export const contactPreference = v.picklist(CONTACT_PREFERENCES, "Please select a contact preference");

export const customerSchema = v.object({
  phone: customerPhone,
  contactPreference,
});

/** A customer as stored: the schema's fields with the id and creation date. */
export type Customer = { id: number } & v.InferOutput<typeof customerSchema> & { createdAt: string };
