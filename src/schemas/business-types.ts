import * as v from "valibot";

export const BUSINESS_TYPE_NAME_MIN = 2;
export const BUSINESS_TYPE_NAME_MAX = 100;
export const BUSINESS_TYPE_DESCRIPTION_MAX = 500;

export const businessTypeSchema = v.object({
  name: v.pipe(
    v.string("Business type name is required"),
    v.trim(),
    v.nonEmpty("Business type name is required"),
    v.minLength(BUSINESS_TYPE_NAME_MIN, "Name must be at least 2 characters long"),
    v.maxLength(BUSINESS_TYPE_NAME_MAX, "Name cannot exceed 100 characters"),
  ),
  description: v.optional(
    v.pipe(
      v.nullable(v.string("Description must be text"), ""),
      v.transform((s) => (s ?? "").trim()),
      v.maxLength(BUSINESS_TYPE_DESCRIPTION_MAX, "Description cannot exceed 500 characters"),
    ),
    "",
  ),
  isActive: v.optional(v.boolean("isActive must be true or false"), true),
});

export type BusinessTypeInput = v.InferOutput<typeof businessTypeSchema>;

/** A business type as the API answers it: the schema's fields with its id and creation date. */
export type BusinessType = { id: number } & BusinessTypeInput & { createdAt: string };
