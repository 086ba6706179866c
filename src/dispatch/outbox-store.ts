// The dispatcher's store (store.ts DispatchStore) on the app's outbox: the deliveries repo, with the two rules that
// ride on it. A claim holds marketing back by the deferral policy of the moment (quiet hours, the daily cap); a failure
// with Meta's 131050 turns that person's WhatsApp marketing off until they write to us there again. Every call runs
// with SQLite's busy wait off, so it never waits for another process's write lock in the event loop (src/db/client.ts
// withoutBusyWait; the dispatcher tries again a moment later).
import { isMarketingStopped } from "../messaging/whatsapp-errors.ts";
import type { Repos } from "../repos/index.ts";
import type { DeferralPolicy } from "../repos/sql/claim.ts";
import type { DispatchStore } from "./store.ts";

export function outboxStore(repos: Pick<Repos, "deliveries" | "customerInbound" | "withoutBusyWait">, deferralPolicy: () => DeferralPolicy): DispatchStore {
  return repos.withoutBusyWait({
    ...repos.deliveries,
    claim: (now: number, limit: number) => repos.deliveries.claim(now, limit, deferralPolicy()),
    markFailed: (id: number, code: number | null, message: string, now: number) => {
      repos.deliveries.markFailed(id, code, message, now);
      if (isMarketingStopped(code)) repos.customerInbound.markMarketingStoppedByDelivery(id, now);
    },
  });
}
