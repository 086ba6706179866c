// Issue 23 item 8: messages held by quiet hours are planned again when the window changes, and the status says when
// they go on the recipients' clocks ("Held until 8:00 recipients' time"), not only that they wait.
import { afterEach, expect, test } from "bun:test";
import { progressLine } from "../../cli/broadcast-progress.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { deliveryById, insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";

let ctx: TestContext;
afterEach(() => ctx?.close());

function setClock(iso: string): void {
  ctx.clock.advance(Date.parse(iso) - ctx.clock.now().getTime());
}
const claim = () => ctx.repos.deliveries.claim(ctx.clock.now().getTime(), 100, ctx.services.settings.deferralPolicy()).map((d) => d.id);

function heldInNewYork() {
  const businessId = insertBusiness(ctx).id;
  const { customer } = insertSubscriber(ctx, businessId, { phone: "+12125550131" });
  const broadcast = insertBroadcast(ctx, { businessId });
  return { broadcast, delivery: insertDelivery(ctx, broadcast, customer, { nextAttemptAt: ctx.clock.now() }) };
}

test("a later morning: the held message is due at the new end, and the status says so on the recipient's clock", () => {
  ctx = testContext();
  setClock("2026-01-15T11:00:00Z"); // 06:00 in New York
  ctx.services.settings.update(OPERATOR, { quietHours: "20:00-08:00" });
  const ny = heldInNewYork();
  expect(claim()).toEqual([]);
  expect(deliveryById(ctx, ny.delivery.id).nextAttemptAt.toISOString()).toBe("2026-01-15T13:00:00.000Z");
  const before = ctx.services.broadcasts.status(OPERATOR, ny.broadcast.id);
  expect(before.waiting).toEqual({ quietHours: 1, dailyLimit: 0, quietHoursUntil: "8:00" });
  expect(progressLine(before)).toContain("· 1 held until 8:00 recipients' time");

  ctx.services.settings.update(OPERATOR, { quietHours: "20:00-09:30" });
  expect(claim()).toEqual([]);
  const after = deliveryById(ctx, ny.delivery.id);
  expect(after.status).toBe("Queued");
  expect(after.deferredReason).toBe("quiet_hours");
  expect(after.nextAttemptAt.toISOString()).toBe("2026-01-15T14:30:00.000Z");
  expect(ctx.services.broadcasts.status(OPERATOR, ny.broadcast.id).waiting?.quietHoursUntil).toBe("9:30");
});

test("an earlier morning (or quiet hours off): the held message goes at once instead of at the old time", () => {
  ctx = testContext();
  setClock("2026-01-15T12:30:00Z"); // 07:30 in New York
  ctx.services.settings.update(OPERATOR, { quietHours: "20:00-08:00" });
  const ny = heldInNewYork();
  expect(claim()).toEqual([]);
  ctx.services.settings.update(OPERATOR, { quietHours: "20:00-07:00" });
  expect(claim()).toEqual([ny.delivery.id]);
  expect(deliveryById(ctx, ny.delivery.id).status).toBe("Sending");
});

test("a change of another setting leaves the plan as it was", () => {
  ctx = testContext();
  setClock("2026-01-15T11:00:00Z");
  ctx.services.settings.update(OPERATOR, { quietHours: "20:00-08:00" });
  const ny = heldInNewYork();
  claim();
  ctx.services.settings.update(OPERATOR, { maxPerDay: 3 });
  expect(deliveryById(ctx, ny.delivery.id).nextAttemptAt.toISOString()).toBe("2026-01-15T13:00:00.000Z");
});
