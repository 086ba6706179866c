import { type Placeholder, sql } from "drizzle-orm";

/**
 * `{ name: sql.placeholder(name) }` for each name: the values of a prepared insert, filled in by name when it runs.
 * For the few statements worth preparing (the subscribe path, see bench/README.md); the rest stay plain.
 */
export function placeholders<const K extends string>(...names: K[]): { [N in K]: Placeholder<N> } {
  return Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as { [N in K]: Placeholder<N> };
}
