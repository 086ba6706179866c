// The one way the raw SQL of src/repos/sql is prepared and kept: each file names its statements in one function of
// the connection, wrapped in `statements()`. They are prepared on first use (a command that never sends prepares
// none of the outbox's), once per connection: every repo made on the same connection shares them.
import type { Database } from "bun:sqlite";
import type { Db } from "../../db/client.ts";

/** `prepare` run once per connection, when a statement is first needed; the same statements after that. */
export function statements<T>(prepare: (sqlite: Database) => T): (db: Db) => T {
  const prepared = new WeakMap<Database, T>();
  return (db) => {
    let q = prepared.get(db.$client);
    if (!q) prepared.set(db.$client, (q = prepare(db.$client)));
    return q;
  };
}
