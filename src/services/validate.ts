import type * as v from "valibot";
import { ValidationError } from "../errors.ts";
import { check } from "../schemas/check.ts";

/** Parses input with a shared schema or throws a 400 carrying the spec's message for each field. */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = check(schema, input);
  if (!result.ok) throw new ValidationError(result.message, result.errors);
  return result.value;
}
