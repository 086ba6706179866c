// Shared pieces of the Node baselines (bench/baseline-subscribe/, bench/baseline-webhooks/): their database opened
// exactly as Nearcast opens its own, their server's start and stop, and their fallback load generator's one JSON
// line. Plain JavaScript importing nothing installed: each baseline is its own npm package and passes in its own.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const MIGRATIONS = join(import.meta.dirname, "..", "..", "migrations");

/** A better-sqlite3 database on Nearcast's own schema (its migrations) and durability settings (WAL, NORMAL). */
export function openNearcastSchema(Database, file) {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  for (const name of readdirSync(MIGRATIONS).filter((f) => f.endsWith(".sql")).sort()) {
    for (const statement of readFileSync(join(MIGRATIONS, name), "utf8").split("--> statement-breakpoint")) {
      if (statement.trim()) db.exec(statement);
    }
  }
  return db;
}

/** Listens on loopback, announces the URL the way the bench waits for it, and closes cleanly on SIGTERM/SIGINT. */
export async function serve(app, db, port) {
  await app.listen({ port, host: "127.0.0.1" });
  process.stderr.write(`listening on http://127.0.0.1:${app.server.address().port}\n`);
  const stop = async () => {
    await app.close();
    db.close();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

/** Prints autocannon's totals as the bench reads them, one JSON line, with the generator's own fields added. */
export function printTotals(result, extra) {
  process.stdout.write(
    `${JSON.stringify({
      requests: result.requests.total,
      seconds: result.duration,
      rps: result.requests.average,
      ok: result["2xx"],
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      latencyP50: result.latency.p50,
      latencyP99: result.latency.p99,
      ...extra,
    })}\n`,
  );
}
