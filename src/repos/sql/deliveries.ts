// The outbox: one row per message to one subscriber (see the deliveries table in src/db/schema.ts), and the store the
// dispatcher works through (DispatchStore in src/dispatch/store.ts; src/dispatch/outbox-store.ts adapts this repo to
// it). Its statements live beside this file, one file per job; this one puts them together as `repos.deliveries`.
//
// Raw SQL on prepared statements, on purpose (the rest of src/repos uses drizzle's builder): here it is the clearer
// way to say what happens. A broadcast to 100,000 subscribers is ONE INSERT ... SELECT; a claim is ONE UPDATE ...
// RETURNING that also skips whoever unsubscribed meanwhile (CASE WHEN EXISTS); each result is one guarded UPDATE
// whose WHERE says which moves are allowed (a status callback may have got there first). In drizzle's builder these
// become sql`` fragments inside builder calls, harder to read than the statements themselves.
import type { Db } from "../../db/client.ts";
import { broadcastProgress } from "./broadcast-progress.ts";
import { broadcastStop } from "./broadcast-stop.ts";
import { deliveryReport } from "./delivery-report.ts";
import { outboxClaim } from "./claim.ts";
import { outboxEnqueue } from "./enqueue.ts";
import { outboxPark } from "./paused-deliveries.ts";
import { outboxPersonalize } from "./personalize.ts";
import { outboxPrune } from "./prune.ts";
import { outboxReconcile } from "./reconcile.ts";
import { scheduledStarts } from "./scheduled-starts.ts";
import { outboxSendResults } from "./send-results.ts";
import { outboxStatusChecks } from "./status-checks.ts";

export function deliveriesRepo(db: Db) {
  return {
    ...outboxEnqueue(db),
    ...scheduledStarts(db),
    ...outboxClaim(db),
    ...outboxSendResults(db),
    ...outboxPark(db),
    ...outboxReconcile(db),
    ...outboxPrune(db),
    ...broadcastProgress(db),
    ...outboxStatusChecks(db),
    ...broadcastStop(db),
    ...deliveryReport(db),
    ...outboxPersonalize(db),
  };
}

export type DeliveriesRepo = ReturnType<typeof deliveriesRepo>;
