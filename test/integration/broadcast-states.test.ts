// The world-builder for broadcasts (broadcastIn in test/helpers/worlds.ts): each state it builds is the one the API
// then reports, with the counts a test relies on, so a file that asks for "a cancelled broadcast" gets one.
// Not the scenario runner: no HTTP call; the service's status is what the API's GetBroadcastStatus answers.
import { afterEach, expect, test } from "bun:test";
import { OPERATOR } from "../../src/services/principal.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import type { DeliveryRow } from "../helpers/delivery-factories.ts";
import { type BroadcastState, broadcastIn, shopWithSubscribers } from "../helpers/worlds.ts";

let ctx: TestContext;
afterEach(() => ctx.close());

// The state built, the API's state, fields of its summary, and its deliveries' statuses (the API counts a claimed
// "Sending" row as queued).
const cases: [BroadcastState, string, Record<string, unknown>, DeliveryRow["status"][]][] = [
  ["scheduled", "scheduled", { total: 0, startedAt: null, cancelledAt: null }, []],
  ["cancelled", "cancelled", { total: 0, startedAt: null }, []],
  ["queued", "sending", { total: 3, queued: 3, completedAt: null }, ["Queued", "Queued", "Queued"]],
  ["sending", "sending", { total: 3, queued: 3, completedAt: null }, ["Sending", "Queued", "Queued"]],
  ["completed", "completed", { total: 3, queued: 0, sent: 3 }, ["Sent", "Sent", "Sent"]],
];

for (const [state, shown, fields, statuses] of cases) {
  test(`broadcastIn "${state}": the API shows it ${shown}`, async () => {
    ctx = testContext();
    const { business } = shopWithSubscribers(ctx, 3);
    const { id, at } = await broadcastIn(ctx, state, { businessId: business.id, text: "Soup's on" });
    const summary = ctx.services.broadcasts.status(OPERATOR, id);
    expect(summary).toMatchObject({ id, state: shown, messageText: "Soup's on", ...fields });
    expect(ctx.repos.deliveries.listByBroadcast(id).map((d) => d.status)).toEqual(statuses);
    expect(at).toBe(shown === "scheduled" || shown === "cancelled" ? ctx.clock.now().getTime() + 3_600_000 : null);
  });
}
