// Looks up the outcome of deliveries sent without a status callback (no public URL Twilio can reach; issue 23, item 4)
// with the Messages API, on the schedule of status-checks.ts, in the free send slots. What the provider says goes
// through the same door as a status callback (`onStatus`: the status-callbacks service, where statuses only move
// forward), so a looked-up "delivered" is recorded exactly as a called-back one.
import type { Logger } from "../lib/logger.ts";
import type { StatusUpdate } from "../messaging/messenger.ts";
import type { DiskWait } from "./disk-wait.ts";
import type { InFlight } from "./in-flight.ts";
import { nextStatusCheck } from "./status-checks.ts";
import type { DispatchMessenger, DispatchStore, StatusCheck } from "./store.ts";

/** While a look-up runs, its row is not due again for this long. */
const LOOKUP_LEASE_MS = 60_000;

export interface StatusPollerDeps {
  store: DispatchStore;
  /** The provider's look-up by id. */
  lookup: NonNullable<DispatchMessenger["lookup"]>;
  /** Applies what the provider says, as a status callback would. */
  onStatus: (update: StatusUpdate) => void;
  inFlight: InFlight;
  diskWait: DiskWait;
  logger: Logger;
  now(): number;
  concurrency: number;
}

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class StatusPoller {
  private readonly checking = new Set<number>();

  constructor(private readonly deps: StatusPollerDeps) {}

  /** Starts the look-ups that are due, in the free send slots. */
  poll(now: number): void {
    const { store, inFlight, logger } = this.deps;
    try {
      const free = this.deps.concurrency - inFlight.size;
      if (free <= 0) return;
      for (const row of store.dueStatusChecks(now, free)) {
        if (this.checking.has(row.id)) continue;
        // Settled meanwhile (or never sent): nothing to ask.
        if (row.status !== "Sent" || !row.providerId) {
          store.setStatusCheck(row.id, null);
          continue;
        }
        store.setStatusCheck(row.id, now + LOOKUP_LEASE_MS);
        this.checking.add(row.id);
        inFlight.track(this.check(row, row.providerId).finally(() => this.checking.delete(row.id)));
      }
    } catch (e) {
      if (!this.deps.diskWait.failed(e)) logger.error(`dispatcher: status look-ups failed: ${errText(e)}`);
    }
  }

  private async check(row: StatusCheck, providerId: string): Promise<void> {
    const { store, logger } = this.deps;
    let found: Awaited<ReturnType<StatusPollerDeps["lookup"]>> | undefined;
    try {
      found = await this.deps.lookup(providerId);
    } catch (e) {
      // Not answered (a timeout, a 5xx): asked again at the next step of the schedule.
      logger.warn(`dispatcher: could not look up ${providerId} yet: ${errText(e)}`);
    }
    const now = this.deps.now();
    try {
      if (found) this.deps.onStatus({ ...found, at: new Date(now), deliveryId: row.id });
      const settled = found === null || found?.status === "Delivered" || found?.status === "Failed";
      store.setStatusCheck(row.id, settled ? null : nextStatusCheck(row.sentAt ?? now, now));
    } catch (e) {
      // Not written (a full disk): the lease taken before the look-up runs out and it is asked again.
      if (!this.deps.diskWait.failed(e)) throw e;
    }
  }
}
