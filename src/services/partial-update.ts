import type * as v from "valibot";

type ObjectSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

/** A stored record that carries every field of `S`: a schema field with no column is a compile error at the call. */
export type CurrentValues<S extends ObjectSchema> = { [K in keyof S["entries"]]: unknown };

/**
 * An update body with every field of `schema` the body leaves out taken from `current`, so a PUT replaces what it
 * names and keeps the rest (a client that omits isActive must not silently reactivate a business). The keys come
 * from the schema itself: a field added there is kept on a partial update with no edit here. A key given as
 * undefined (a caller in this process; JSON has none) counts as left out. A body that is not an object is left for
 * the schema to refuse.
 */
export function keepOmittedFields<S extends ObjectSchema>(schema: S, current: CurrentValues<S>, input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const kept = Object.fromEntries(Object.keys(schema.entries).map((key) => [key, current[key as keyof S["entries"]]]));
  const given = Object.entries(input).filter(([, value]) => value !== undefined);
  return { ...kept, ...Object.fromEntries(given) };
}
