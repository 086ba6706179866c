// A data dir seeded before the executable first starts (as the CLI would): one owner, one business, many subscribers.
import { loadConfig } from "../../src/config.ts";
import { type AppContext, createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { insertManySubscribers } from "./customer-factories.ts";
import { shopWithSubscribers } from "./worlds.ts";

export interface SeededShop {
  ownerEmail: string;
  businessName: string;
  /** How many active SMS subscribers; phones +1415 + (firstNumber + i). */
  subscribers: number;
  firstNumber: number;
}

/** Seeds the shop, then runs `then` on the open context (e.g. to publish); answers what it answers, else the
 * business id. The context is closed either way. */
export async function seedShop<T = number>(
  dataDir: string,
  shop: SeededShop,
  then: (ctx: AppContext, businessId: number) => T | Promise<T> = (_ctx, businessId) => businessId as T,
): Promise<T> {
  const ctx = createContext(loadConfig({}, { dataDir }), { logger: new MemoryLogger() });
  try {
    const { business } = shopWithSubscribers(ctx, 0, { owner: { email: shop.ownerEmail }, business: { name: shop.businessName } });
    insertManySubscribers(ctx, business.id, shop.subscribers, shop.firstNumber);
    return await then(ctx, business.id);
  } finally {
    ctx.close();
  }
}
