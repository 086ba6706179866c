import type * as v from "valibot";
import { ValidationError } from "../errors.ts";
import { wireName } from "../schemas/broadcast-input.ts";
import { check } from "../schemas/check.ts";

/** Parses input with a shared schema or throws a 400 carrying the spec's message for each field. */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = check(schema, input);
  if (!result.ok) throw new ValidationError(result.message, result.errors);
  return result.value;
}

/** Parses a broadcast form's fields with its schema, or throws the 400 of the first field at fault, named as the form
 * names it (BusinessId for businessId). A body that is not an object counts as an empty form. */
export function validateForm<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const body = typeof input === "object" && input !== null && !Array.isArray(input) ? input : {};
  const result = check(schema, body, { abortEarly: true });
  if (result.ok) return result.value;
  const [key, message] = Object.entries(result.errors)[0]!;
  throw new ValidationError(message, { [wireName(key)]: message });
}
