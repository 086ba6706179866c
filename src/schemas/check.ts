import * as v from "valibot";

export type FieldErrors = Record<string, string>;
export type CheckResult<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors; message: string };

type Entries = Record<string, unknown>;

function objectEntries(schema: unknown): Entries | undefined {
  const s = schema as { entries?: Entries; pipe?: unknown[] };
  if (s.entries) return s.entries;
  return s.pipe ? objectEntries(s.pipe[0]) : undefined;
}

// valibot reports a missing key as 'Invalid key: Expected "x"' instead of the field's own message; giving
// every declared key an explicit undefined lets the field's schema answer ('Email is required').
function withDeclaredKeys(schema: unknown, input: unknown): unknown {
  const entries = objectEntries(schema);
  if (!entries || typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const filled: Record<string, unknown> = {};
  for (const key of Object.keys(entries)) filled[key] = undefined;
  return Object.assign(filled, input);
}

// Runs a schema and keeps the first message per field: what both the API (400 body) and the forms show.
// `abortEarly`: stop at the first problem (a form whose API has always named one field at a time).
export function check<S extends v.GenericSchema>(schema: S, input: unknown, { abortEarly = false } = {}): CheckResult<v.InferOutput<S>> {
  const result = v.safeParse(schema, withDeclaredKeys(schema, input), { abortEarly });
  if (result.success) return { ok: true, value: result.output };
  const errors: FieldErrors = {};
  for (const issue of result.issues) {
    const key = issue.path?.map((p) => String(p.key)).join(".") || "_";
    if (!(key in errors)) errors[key] = issue.message;
  }
  return { ok: false, errors, message: result.issues[0]?.message ?? "Invalid input." };
}
