import type * as v from "valibot";

// The length limits a form shows as "n/max" counters, read from the schema itself so the number lives in one place.

interface Node {
  type?: string;
  requirement?: unknown;
  pipe?: readonly Node[];
  wrapped?: Node;
  entries?: Record<string, Node>;
}

/** The first maxLength requirement inside a field's schema (through optional/nullable wrappers and pipes). */
function maxLengthIn(node: Node | undefined): number | undefined {
  if (!node) return undefined;
  if (node.type === "max_length" && typeof node.requirement === "number") return node.requirement;
  for (const item of node.pipe ?? []) {
    if (item === node) continue;
    const found = maxLengthIn(item);
    if (found !== undefined) return found;
  }
  return maxLengthIn(node.wrapped);
}

function entriesOf(node: Node): Record<string, Node> | undefined {
  if (node.entries) return node.entries;
  return node.pipe?.[0] ? entriesOf(node.pipe[0]) : undefined;
}

/** Each field's maximum length in an object schema (or a pipe over one), for the fields that have one. */
export function maxLengths(schema: v.GenericSchema): Record<string, number | undefined> {
  const limits: Record<string, number | undefined> = {};
  for (const [key, field] of Object.entries(entriesOf(schema as Node) ?? {})) limits[key] = maxLengthIn(field);
  return limits;
}
