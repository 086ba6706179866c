// The plans SQLite picks for the statements a piece of code prepares: each statement `run` prepares (captured as the
// repo prepares it) goes through EXPLAIN QUERY PLAN with a 1 for every parameter (?NNN counted once each).
import type { Database } from "bun:sqlite";

export function queryPlans(sqlite: Database, run: () => unknown): { sql: string; plan: string[] }[] {
  const seen: string[] = [];
  const original = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((sql: string, ...rest: unknown[]) => {
    seen.push(sql);
    return (original as (...a: unknown[]) => unknown)(sql, ...rest);
  }) as typeof sqlite.prepare;
  try {
    run();
  } finally {
    sqlite.prepare = original;
  }
  return seen.map((sql) => {
    const numbered = [...new Set(sql.match(/\?\d+/g) ?? [])];
    const params = (numbered.length > 0 ? numbered : (sql.match(/\?/g) ?? [])).map(() => 1);
    const rows = sqlite.query(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as [number])) as { detail: string }[];
    return { sql, plan: rows.map((r) => r.detail) };
  });
}
