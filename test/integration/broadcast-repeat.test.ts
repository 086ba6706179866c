// Issue 10, item 8: no accidental double broadcast. The same text to the same business within 10 minutes answers
// 409 duplicate_broadcast in the one error shape, with `duplicateOf`, and writes nothing, unless Confirm=true.
// Another owner's identical text (their own business) is no repeat; two identical publishes at once: one passes.
// Not the scenario runner: each test is a sequence of multipart publishes on the fake clock.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { broadcasts, deliveries } from "../../src/db/schema.ts";
import { CONFIRM_INVALID } from "../../src/schemas/broadcast-input.ts";
import { DUPLICATE_BROADCAST, REPEAT_WINDOW_MS } from "../../src/services/broadcasts/repeat-check.ts";
import type { ApiClient } from "../helpers/api.ts";
import type { TestContext } from "../helpers/context.ts";
import { PNG } from "../helpers/images.ts";
import { type Member, member, ownerWithShop, shopWithSubscribers } from "../helpers/worlds.ts";

const PUBLISH = "/api/business/PublishMessageToAllCustomers";
const TEXT = "Warm cinnamon rolls, 2 for $5 until noon!";

let ctx: TestContext, api: ApiClient, owner: Member, businessId: number;
beforeEach(() => {
  ({ ctx, api, owner, businessId } = ownerWithShop(3));
});

afterEach(() => ctx.close());

const withSubscribers = (ownerId: number, n: number): number => shopWithSubscribers(ctx, n, { business: { ownerId } }).business.id;

function publish(token: string, fields: Record<string, string | File>) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return api.call("POST", PUBLISH, { body, token });
}

const broadcastsOf = (id: number) => ctx.db.select().from(broadcasts).where(eq(broadcasts.businessId, id)).all();
const allDeliveries = () => ctx.db.select().from(deliveries).all();

describe("PublishMessageToAllCustomers: the same text twice within 10 minutes", () => {
  test("the repeat answers 409 with duplicateOf and writes nothing; with Confirm=true it is sent", async () => {
    const first = await publish(owner.token, { BusinessId: String(businessId), MessageText: TEXT });
    expect(first.status).toBe(200);
    const firstId = first.body.broadcastId as number;

    ctx.clock.advance(9 * 60_000);
    // Surrounding spaces do not make another message (the text is stored trimmed); an image does not either.
    const repeat = await publish(owner.token, {
      BusinessId: String(businessId),
      MessageText: `  ${TEXT} `,
      Image: new File([new Uint8Array(PNG)], "rolls.png", { type: "image/png" }),
    });
    expect(repeat.status).toBe(409);
    expect(repeat.body).toEqual({ error: DUPLICATE_BROADCAST, code: "duplicate_broadcast", duplicateOf: firstId });
    expect(broadcastsOf(businessId)).toHaveLength(1);
    expect(allDeliveries()).toHaveLength(3);
    expect(ctx.db.$client.query("SELECT COUNT(*) AS n FROM uploads").get()).toEqual({ n: 0 }); // no image kept

    const confirmed = await publish(owner.token, { BusinessId: String(businessId), MessageText: TEXT, Confirm: "true" });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ recipients: 3 });
    expect(confirmed.body.broadcastId).not.toBe(firstId);
    expect(broadcastsOf(businessId)).toHaveLength(2);
    // Every delivery belongs to exactly one of the two broadcasts: three each.
    const byBroadcast = new Map<number, number>();
    for (const d of allDeliveries()) byBroadcast.set(d.broadcastId, (byBroadcast.get(d.broadcastId) ?? 0) + 1);
    expect([...byBroadcast.entries()]).toEqual([
      [firstId, 3],
      [confirmed.body.broadcastId, 3],
    ]);

    // The repeat check now names the newest of the two.
    const third = await publish(owner.token, { BusinessId: String(businessId), MessageText: TEXT, Confirm: "false" });
    expect(third.status).toBe(409);
    expect(third.body.duplicateOf).toBe(confirmed.body.broadcastId);
  });

  test("after 10 minutes, or with another text, no confirmation is asked", async () => {
    expect((await publish(owner.token, { BusinessId: String(businessId), MessageText: TEXT })).status).toBe(200);
    expect((await publish(owner.token, { BusinessId: String(businessId), MessageText: `${TEXT} Today only.` })).status).toBe(200);
    ctx.clock.advance(REPEAT_WINDOW_MS + 1);
    const later = await publish(owner.token, { BusinessId: String(businessId), MessageText: TEXT });
    expect(later.status).toBe(200);
    expect(broadcastsOf(businessId)).toHaveLength(3);
  });

  test("another owner's identical text to their own business is not a repeat (nor is the same owner's other business)", async () => {
    const other = member(ctx);
    const theirs = withSubscribers(other.id, 2);
    const mySecond = withSubscribers(owner.id, 1);
    expect((await publish(owner.token, { BusinessId: String(businessId), MessageText: TEXT })).status).toBe(200);
    const res = await publish(other.token, { BusinessId: String(theirs), MessageText: TEXT });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ recipients: 2 });
    expect((await publish(owner.token, { BusinessId: String(mySecond), MessageText: TEXT })).status).toBe(200);
    // ...and the other owner cannot learn about the first owner's broadcast through the check: 403 as before.
    const probe = await publish(other.token, { BusinessId: String(businessId), MessageText: TEXT });
    expect(probe.status).toBe(403);
    expect(probe.body.duplicateOf).toBeUndefined();
  });

  test("two identical publishes at the same moment: exactly one is sent, the other answers 409 naming it", async () => {
    // With an image each: both pass the early check while their images are being stored, so it is the check inside
    // the enqueue transaction that refuses the second.
    const image = () => new File([new Uint8Array(PNG)], "rolls.png", { type: "image/png" });
    const [a, b] = await Promise.all([
      publish(owner.token, { BusinessId: String(businessId), MessageText: TEXT, Image: image() }),
      publish(owner.token, { BusinessId: String(businessId), MessageText: TEXT, Image: image() }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const sent = a.status === 200 ? a : b;
    const refused = a.status === 200 ? b : a;
    expect(refused.body.duplicateOf).toBe(sent.body.broadcastId);
    expect(broadcastsOf(businessId)).toHaveLength(1);
    expect(allDeliveries()).toHaveLength(3);
    // The refused one's image is not kept.
    expect(ctx.db.$client.query("SELECT COUNT(*) AS n FROM uploads").get()).toEqual({ n: 1 });
  });

  test("a Confirm that is neither true nor false: 400 naming the field, nothing stored", async () => {
    const res = await publish(owner.token, { BusinessId: String(businessId), MessageText: TEXT, Confirm: "yes please" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: CONFIRM_INVALID, code: "validation_failed", fields: { Confirm: CONFIRM_INVALID } });
    expect(broadcastsOf(businessId)).toHaveLength(0);
  });
});
