// POST /api/coupon/Redeem (issue 25 item 2): a unique code redeems once (then 409 with the first time), a shared code
// counts each time and once per phone, expired 410, unknown 404 (another owner's code too, with the same body), the
// admin redeems any, and the 11th unknown code in a minute is a 429 while known codes still work.
import { describe, expect, test } from "bun:test";
import { COUPON_EXPIRED, COUPON_NO_SUBSCRIBER, COUPON_TOO_MANY_TRIES, COUPON_UNKNOWN, COUPON_USED, REDEEM_CODE_INVALID, REDEEM_CODE_REQUIRED } from "../../src/schemas/coupons.ts";
import { INVALID_PHONE } from "../../src/schemas/texts.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { ANA, BEN, type CouponShops, couponShops, EXPIRED_UNIQUE, GYM_MEMBER, GYM_UNIQUE, redemptions, UNIQUE } from "../helpers/coupon-world.ts";
import { type ApiScenario, request, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { type Member, member } from "../helpers/worlds.ts";

const REDEEM = "/api/coupon/Redeem";
const START = "2026-01-15T12:00:00.000Z";
const HOUR = 3_600_000;

type World = ScenarioWorld & CouponShops & { ownerA: Member; ownerB: Member; admin: Member };

function world(): World {
  const ctx = testContext();
  const [ownerA, ownerB, admin] = [member(ctx), member(ctx), member(ctx, { role: "admin" })];
  const shops = couponShops(ctx, ownerA.id, ownerB.id);
  return { ctx, api: apiClient(ctx), ...shops, ownerA, ownerB, admin, tokens: { ownerA: ownerA.token, ownerB: ownerB.token, admin: admin.token } };
}

/** Redeems through the service first (as a till did an hour ago), then moves the clock on. */
const redeemedEarlier = (as: "ownerA" | "ownerB", body: Record<string, string>) => (w: World) => {
  w.ctx.services.coupons.redeem(w.ctx.repos.users.findById(w[as].id)!, body);
  w.ctx.clock.advance(HOUR);
};
const later = new Date(Date.parse(START) + HOUR).toISOString();
const UNKNOWN_BODY = { error: COUPON_UNKNOWN, code: "not_found" };

const redeem = request<World>("ownerA", "POST", REDEEM);

const scenarios: ApiScenario<World>[] = [
  redeem("a unique code: redeemed, for its person", 200, {
    json: { code: UNIQUE },
    expect: (body, w) =>
      expect(body).toEqual({
        status: "redeemed",
        redeemedAt: START,
        code: UNIQUE,
        kind: "unique",
        broadcastId: w.broadcasts.unique,
        businessName: "A Bakery",
        expiresAt: w.live.toISOString(),
        customer: { id: w.ana.id, phoneMasked: "•••• 0101" },
      }),
    after: (w) =>
      expect(redemptions(w.ctx)).toEqual([
        expect.objectContaining({ broadcastId: w.broadcasts.unique, customerId: w.ana.id, redeemedBy: w.ownerA.id, redeemedAt: new Date(START) }),
      ]),
  }),
  redeem("a code typed in lower case with spaces in the middle", 200, {
    json: { code: "  ab3k 9qpm " },
    expectBody: { status: "redeemed", code: UNIQUE },
    after: (w) => expect(redemptions(w.ctx)).toHaveLength(1),
  }),
  redeem("a unique code the second time: 409 with the first time", 409, {
    before: redeemedEarlier("ownerA", { code: UNIQUE }),
    json: { code: UNIQUE },
    errorExtras: ["redeemedAt"],
    expectBody: { error: COUPON_USED, code: "coupon_used", fields: { code: COUPON_USED }, redeemedAt: START },
    after: (w) => expect(redemptions(w.ctx)).toHaveLength(1),
  }),
  redeem("a unique code with a phone: still its own person's", 200, {
    json: { code: UNIQUE, phone: BEN },
    expectBody: { customer: { phoneMasked: "•••• 0101" } },
  }),
  redeem("a shared code without a phone: counted each time", 200, {
    before: redeemedEarlier("ownerA", { code: "SAVE10" }),
    json: { code: "save10" },
    expect: (body, w) => expect(body).toEqual({ status: "redeemed", redeemedAt: later, code: "SAVE10", kind: "shared", broadcastId: w.broadcasts.save10, businessName: "A Bakery", expiresAt: null }),
    after: (w) => expect(redemptions(w.ctx).map((r) => [r.broadcastId, r.customerId])).toEqual([[w.broadcasts.save10, null], [w.broadcasts.save10, null]]),
  }),
  redeem("a shared code with a phone: for that customer", 200, {
    json: { code: "SAVE10", phone: "(415) 555-0101" },
    expectBody: { kind: "shared", customer: { phoneMasked: "•••• 0101" } },
    after: (w) => expect(redemptions(w.ctx)).toEqual([expect.objectContaining({ customerId: w.ana.id, broadcastId: w.broadcasts.save10 })]),
  }),
  redeem("a shared code the same phone redeemed already: 409 with that time", 409, {
    before: redeemedEarlier("ownerA", { code: "SAVE10", phone: ANA }),
    json: { code: "SAVE10", phone: "415 555 0101" },
    errorExtras: ["redeemedAt"],
    expectBody: { code: "coupon_used", redeemedAt: START },
  }),
  redeem("a shared code another phone has not redeemed: counted", 200, {
    before: redeemedEarlier("ownerA", { code: "SAVE10", phone: ANA }),
    json: { code: "SAVE10", phone: BEN },
    after: (w) => expect(redemptions(w.ctx).map((r) => r.customerId)).toEqual([w.ana.id, w.ben.id]),
  }),
  redeem("a shared code without a phone after one with: counted", 200, {
    before: redeemedEarlier("ownerA", { code: "SAVE10", phone: ANA }),
    json: { code: "SAVE10" },
  }),
  redeem("a phone that is not the business's subscriber: 404 naming phone", 404, {
    json: { code: "SAVE10", phone: GYM_MEMBER },
    expectBody: { error: COUPON_NO_SUBSCRIBER },
    fields: { phone: COUPON_NO_SUBSCRIBER },
  }),
  redeem("a phone that is no phone number: 400", 400, { json: { code: "SAVE10", phone: "12" }, fields: { phone: INVALID_PHONE } }),
  redeem("an expired shared code: 410 with its end", 410, {
    json: { code: "OLD5" },
    errorExtras: ["expiredAt"],
    expect: (body, w) => expect(body).toEqual({ error: COUPON_EXPIRED, code: "coupon_expired", fields: { code: COUPON_EXPIRED }, expiredAt: w.expired.toISOString() }),
  }),
  redeem("an expired unique code: 410", 410, { json: { code: EXPIRED_UNIQUE }, errorExtras: ["expiredAt"], expect: (body, w) => expect(body.expiredAt).toBe(w.expired.toISOString()) }),
  redeem("the same shared code twice: the newest unexpired offer", 200, {
    json: { code: "SAVE20" },
    expect: (body, w) => expect(body.broadcastId).toBe(w.broadcasts.save20Live),
  }),
  redeem("an unknown code: 404", 404, { json: { code: "NOPE99" }, expectBody: UNKNOWN_BODY }),
  redeem("another owner's unique code: unknown, the same body", 404, { json: { code: GYM_UNIQUE }, expect: (body) => expect(body).toEqual(UNKNOWN_BODY) }),
  request<World>("ownerB", "POST", REDEEM)("the other owner's own SAVE10 is theirs", 200, {
    json: { code: "SAVE10" },
    expect: (body, w) => expect(body).toMatchObject({ businessName: "B Gym", broadcastId: w.broadcasts.gymSave10 }),
  }),
  request<World>("admin", "POST", REDEEM)("the admin redeems any owner's code", 200, {
    json: { code: GYM_UNIQUE },
    expectBody: { businessName: "B Gym", kind: "unique", customer: { phoneMasked: "•••• 0199" } },
    after: (w) => expect(redemptions(w.ctx)).toEqual([expect.objectContaining({ redeemedBy: w.admin.id, customerId: w.member.id })]),
  }),
  request<World>(undefined, "POST", REDEEM)("anonymous: 401", 401, { json: { code: UNIQUE } }),
  redeem("without the XSRF token: 403", 403, { json: { code: UNIQUE }, noXsrf: true }),
  redeem("no code: 400", 400, { json: { code: "  " }, fields: { code: REDEEM_CODE_REQUIRED } }),
  redeem("a code with other signs: 400", 400, { json: { code: "SAVE!0" }, fields: { code: REDEEM_CODE_INVALID } }),
  redeem("a form body works too", 200, {
    raw: `code=${UNIQUE}`,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    expectBody: { status: "redeemed", code: UNIQUE },
  }),
  redeem("the 11th unknown code in a minute: 429 with Retry-After", 429, {
    before: async (w) => {
      for (let i = 0; i < 10; i++) expect((await w.api.post(REDEEM, { code: `NOPE${i}` }, { token: w.ownerA.token })).status).toBe(404);
    },
    json: { code: "NOPE10" },
    expectBody: { error: COUPON_TOO_MANY_TRIES, code: "too_many_requests" },
    expect: (_, __, res) => expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0),
  }),
  redeem("after 10 unknown codes a known code still redeems", 200, {
    before: async (w) => {
      for (let i = 0; i < 10; i++) await w.api.post(REDEEM, { code: `NOPE${i}` }, { token: w.ownerA.token });
    },
    json: { code: UNIQUE },
    expectBody: { status: "redeemed" },
  }),
  request<World>("ownerB", "POST", REDEEM)("another account is not limited by the first's guesses", 404, {
    before: async (w) => {
      for (let i = 0; i < 11; i++) await w.api.post(REDEEM, { code: `NOPE${i}` }, { token: w.ownerA.token });
    },
    json: { code: "NOPE99" },
  }),
  redeem("a minute later, unknown codes are heard again", 404, {
    before: async (w) => {
      for (let i = 0; i < 11; i++) await w.api.post(REDEEM, { code: `NOPE${i}` }, { token: w.ownerA.token });
      w.ctx.clock.advance(60_001);
    },
    json: { code: "NOPE99" },
  }),
];

describe("POST /api/coupon/Redeem", () => {
  runScenarios<World>(scenarios, {
    world,
    unchanged: (w) => redemptions(w.ctx),
    done: (w) => w.ctx.close(),
  });

  test("two redemptions of one unique code at once: one succeeds, the other is told it was used", async () => {
    const w = world();
    try {
      const answers = await Promise.all([0, 1].map(() => w.api.post(REDEEM, { code: UNIQUE }, { token: w.ownerA.token })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(redemptions(w.ctx)).toHaveLength(1);
      // The operator (the CLI) is told the same.
      expect(w.ctx.services.coupons.redeem(OPERATOR, { code: UNIQUE })).toMatchObject({ status: 409, body: { redeemedAt: START } });
    } finally {
      w.ctx.close();
    }
  });
});
