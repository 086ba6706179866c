// Two shops for the inbox's tests on the built executable, written by a process of its own (see shop-process.ts for
// why): owner A's bakery (an SMS and a WhatsApp follower), owner B's gym (an SMS follower). Prints their ids and the
// owners' session tokens as JSON. Run as a script: bun test/helpers/inbox-seed.ts DATA_DIR
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { insertSubscriber } from "./customer-factories.ts";
import { ownersWorld } from "./worlds.ts";

export interface InboxSeed {
  ownerA: string;
  ownerB: string;
  bakery: number;
  gym: number;
  fan: number;
  whatsappFan: number;
  gymFan: number;
}

export const SEED_PHONES = { fan: "+14155550131", whatsappFan: "+14165550132", gymFan: "+14155550133" };

/** Seeds `dataDir` (created if missing) in a child process. */
export function seedInboxInProcess(dataDir: string): InboxSeed {
  const r = Bun.spawnSync([process.execPath, import.meta.path, dataDir], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`inbox-seed failed: ${r.stderr.toString()}`);
  return JSON.parse(r.stdout.toString()) as InboxSeed;
}

if (import.meta.main) {
  const ctx = createContext(loadConfig({}, { dataDir: process.argv[2]! }), { logger: new MemoryLogger(), database: "create" });
  const w = ownersWorld(ctx, { cafe: false, admin: false });
  const seed: InboxSeed = {
    ownerA: w.ownerA.token,
    ownerB: w.ownerB.token,
    bakery: w.bakery.id,
    gym: w.gym.id,
    fan: insertSubscriber(ctx, w.bakery.id, { phone: SEED_PHONES.fan }).customer.id,
    whatsappFan: insertSubscriber(ctx, w.bakery.id, { phone: SEED_PHONES.whatsappFan, contactPreference: "WhatsApp" }).customer.id,
    gymFan: insertSubscriber(ctx, w.gym.id, { phone: SEED_PHONES.gymFan }).customer.id,
  };
  ctx.db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  ctx.close();
  process.stdout.write(JSON.stringify(seed));
}
