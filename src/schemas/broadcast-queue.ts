// Where a sending broadcast stands among the other shops on the install (issue 23, item 11), in the words the
// history screen and the CLI both show: the dispatcher takes turns between shops, so a broadcast that has not sent
// yet starts after one message of each shop ahead in the round, and then goes alongside them.
import type { BroadcastSummary } from "./broadcasts.ts";

const shops = (n: number) => `${n} other shop${n === 1 ? "" : "s"}`;

/** "Starts after 2 other shops" (nothing sent yet), "Sending alongside 2 other shops", or "" (alone, or not sending). */
export function queueLine(b: Pick<BroadcastSummary, "queueAhead" | "state" | "total" | "queued">): string {
  const n = b.queueAhead ?? 0;
  if (b.state !== "sending" || n === 0 || b.queued === 0) return "";
  // Nothing settled yet: it is still waiting for its first turn.
  return b.queued === b.total ? `Starts after ${shops(n)}` : `Sending alongside ${shops(n)}`;
}
