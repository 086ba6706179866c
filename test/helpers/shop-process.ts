// A shop written into a data dir by a process of its own, which exits when done: the test's process keeps no
// connection to that database (bun:sqlite closes a connection with unfinalized statements only when they are
// collected, and such a late close checkpoints and deletes the -wal and -shm of a folder the test is watching).
// Run as a script: bun test/helpers/shop-process.ts DATA_DIR SUBSCRIBERS
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { insertManySubscribers } from "./customer-factories.ts";
import { shopWithSubscribers } from "./worlds.ts";

/** Adds an owner, a business and `subscribers` subscribers to the database of `dataDir` (created if missing), in a
 * child process; everything is in nearcast.db when it returns (no -wal left). */
export function addShopInProcess(dataDir: string, subscribers: number): void {
  const r = Bun.spawnSync([process.execPath, import.meta.path, dataDir, String(subscribers)], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`shop-process failed: ${r.stderr.toString()}`);
}

if (import.meta.main) {
  const [dataDir, n] = process.argv.slice(2);
  const ctx = createContext(loadConfig({}, { dataDir: dataDir! }), { logger: new MemoryLogger() });
  // Names and numbers another run on the same folder has not used (the factories count from 1 in each process).
  const typeId = ctx.db.$client.query("SELECT id FROM business_types ORDER BY id LIMIT 1").get() as { id: number };
  const { business } = shopWithSubscribers(ctx, 0, {
    owner: { email: `o-${Math.random().toString(36).slice(2)}@example.com` },
    business: { businessTypeId: typeId.id },
  });
  const taken = (ctx.db.$client.query("SELECT COUNT(*) AS n FROM customers").get() as { n: number }).n;
  insertManySubscribers(ctx, business.id, Number(n), 7_000_000 + taken);
  ctx.db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  ctx.close();
  process.exit(0);
}
