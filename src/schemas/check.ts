import * as v from "valibot";

export type FieldErrors = Record<string, string>;
export type CheckResult<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors; message: string };

// Runs a schema and keeps the first message per field: what both the API (400 body) and the forms show.
export function check<S extends v.GenericSchema>(schema: S, input: unknown): CheckResult<v.InferOutput<S>> {
  const result = v.safeParse(schema, input);
  if (result.success) return { ok: true, value: result.output };
  const errors: FieldErrors = {};
  for (const issue of result.issues) {
    const key = issue.path?.map((p) => String(p.key)).join(".") || "_";
    if (!(key in errors)) errors[key] = issue.message;
  }
  return { ok: false, errors, message: result.issues[0]?.message ?? "Invalid input." };
}
