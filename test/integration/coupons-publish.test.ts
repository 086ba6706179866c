// A broadcast's offer on PublishMessageToAllCustomers and UpdateScheduledBroadcast (issue 25 item 2): CouponCode,
// UniqueCoupons and CouponExpires stored with the broadcast (and the shared code's coupons row) in the transaction that
// creates it; every bad combination a 400 naming its field, with nothing written.
import { describe, expect } from "bun:test";
import { eq } from "drizzle-orm";
import { coupons } from "../../src/db/engagement-schema.ts";
import { broadcasts, businesses } from "../../src/db/schema.ts";
import {
  COUPON_BOTH,
  COUPON_CODE_INVALID,
  COUPON_EXPIRES_BEFORE_SEND,
  COUPON_EXPIRES_INVALID,
  COUPON_EXPIRES_PAST,
  COUPON_EXPIRES_TOO_FAR,
  COUPON_EXPIRES_WITHOUT_OFFER,
  PLACEHOLDER_WITHOUT_UNIQUE,
  UNIQUE_COUPONS_INVALID,
  UNIQUE_NEEDS_PLACEHOLDER,
} from "../../src/schemas/coupons.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { type ApiScenario, request, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { ownerWithShop } from "../helpers/worlds.ts";

type World = ScenarioWorld & ReturnType<typeof ownerWithShop>;

const PUBLISH = "/api/business/PublishMessageToAllCustomers";
const UPDATE = "/api/business/UpdateScheduledBroadcast";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

function world(): World {
  // The test clock: 2026-01-15T12:00Z.
  const w = ownerWithShop(2);
  return { ...w, tokens: { owner: w.owner.token, other: w.other.token, admin: w.admin.token } };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
/** A publish form of the world's business, with `fields`. */
const publishing = (fields: Record<string, string>) => (w: World) => form({ BusinessId: String(w.businessId), MessageText: "Coffee and a croissant, 10% off", ...fields });
const rows = (w: World) => w.ctx.db.select().from(broadcasts).all();
const couponRows = (w: World) => w.ctx.db.select().from(coupons).all();
const setZone = (zone: string) => (w: World) => w.ctx.db.update(businesses).set({ timeZone: zone }).where(eq(businesses.id, w.businessId)).run();

const publish = (name: string, status: number, fields: Record<string, string>, rest: Partial<ApiScenario<World>> = {}): ApiScenario<World> =>
  request<World>("owner", "POST", PUBLISH)(name, status, { raw: publishing(fields), headers: FORM, ...rest });

/** A 400 naming one field, with no broadcast and no coupon written. */
const refused = (name: string, fields: Record<string, string>, field: string, message: string, rest: Partial<ApiScenario<World>> = {}) =>
  publish(name, 400, fields, { fields: { [field]: message }, expectBody: { error: message, code: "validation_failed" }, ...rest });

/** A scheduled broadcast of the world's business (the operator's), with `fields`. */
async function scheduled(w: World, fields: Record<string, unknown>): Promise<number> {
  const res = await w.ctx.services.broadcasts.publish(OPERATOR, { businessId: w.businessId, messageText: "Soup of the day", scheduledFor: "2026-01-16T09:00:00Z", ...fields });
  if (!("broadcastId" in res)) throw new Error("not scheduled");
  return res.broadcastId;
}
let scheduledId = 0;

describe("publishing an offer", () => {
  runScenarios<World>(
    [
      publish("a shared code is stored upper case, with its one coupons row", 200, { CouponCode: " save-10 " }, {
        after: (w) => {
          const [b] = rows(w);
          expect(b).toMatchObject({ couponCode: "SAVE-10", uniqueCoupons: false, couponExpiresAt: null });
          expect(couponRows(w)).toEqual([expect.objectContaining({ broadcastId: b!.id, businessId: w.businessId, code: "SAVE-10", deliveryId: null })]);
        },
      }),
      publish("unique codes need {code} in the text and write no coupon yet (they are made at send time)", 200, { UniqueCoupons: "true", MessageText: "Your code: {code}" }, {
        after: (w) => {
          expect(rows(w)[0]).toMatchObject({ couponCode: null, uniqueCoupons: true, messageText: "Your code: {code}" });
          expect(couponRows(w)).toEqual([]);
        },
      }),
      publish("UniqueCoupons false and a blank CouponCode are no offer", 200, { UniqueCoupons: "false", CouponCode: "  " }, {
        after: (w) => {
          expect(rows(w)[0]).toMatchObject({ couponCode: null, uniqueCoupons: false, couponExpiresAt: null });
          expect(couponRows(w)).toEqual([]);
        },
      }),
      publish("the expiry holds to the end of that day in the business's time zone", 200, { CouponCode: "SAVE10", CouponExpires: "2026-01-20" }, {
        before: setZone("America/Los_Angeles"),
        after: (w) => expect(rows(w)[0]!.couponExpiresAt).toEqual(new Date("2026-01-21T07:59:59.999Z")),
      }),
      publish("without a business time zone, the server's (UTC here)", 200, { UniqueCoupons: "true", MessageText: "Code {code}", CouponExpires: "2026-01-15" }, {
        after: (w) => expect(rows(w)[0]!.couponExpiresAt).toEqual(new Date("2026-01-15T23:59:59.999Z")),
      }),
      publish("366 days ahead is the furthest", 200, { CouponCode: "YEAR", CouponExpires: "2027-01-16" }),
      publish("a scheduled publish stores the offer and its coupon the same way", 200, { CouponCode: "Later5", ScheduledFor: "2026-01-16T09:00:00Z", CouponExpires: "2026-01-17" }, {
        after: (w) => {
          const [b] = rows(w);
          expect(b).toMatchObject({ couponCode: "LATER5", startedAt: null, couponExpiresAt: new Date("2026-01-17T23:59:59.999Z") });
          expect(couponRows(w)).toEqual([expect.objectContaining({ broadcastId: b!.id, code: "LATER5" })]);
        },
      }),
      refused("a code of 2 characters", { CouponCode: "ab" }, "CouponCode", COUPON_CODE_INVALID),
      refused("a code of 21 characters", { CouponCode: "A".repeat(21) }, "CouponCode", COUPON_CODE_INVALID),
      refused("a code with a space inside", { CouponCode: "SAVE 10" }, "CouponCode", COUPON_CODE_INVALID),
      refused("a code with other signs", { CouponCode: "SAVE10%" }, "CouponCode", COUPON_CODE_INVALID),
      refused("UniqueCoupons neither true nor false", { UniqueCoupons: "maybe", MessageText: "{code}" }, "UniqueCoupons", UNIQUE_COUPONS_INVALID),
      refused("UniqueCoupons without {code} in the text", { UniqueCoupons: "true" }, "MessageText", UNIQUE_NEEDS_PLACEHOLDER),
      refused("{code} in the text without UniqueCoupons", { MessageText: "Show {code} at the till" }, "MessageText", PLACEHOLDER_WITHOUT_UNIQUE),
      refused("{code} in the text with a shared code", { CouponCode: "SAVE10", MessageText: "Show {code}" }, "MessageText", PLACEHOLDER_WITHOUT_UNIQUE),
      refused("both a shared code and unique codes", { CouponCode: "SAVE10", UniqueCoupons: "true", MessageText: "{code}" }, "CouponCode", COUPON_BOTH),
      refused("an expiry that is no date", { CouponCode: "SAVE10", CouponExpires: "2026-02-30" }, "CouponExpires", COUPON_EXPIRES_INVALID),
      refused("an expiry in another format", { CouponCode: "SAVE10", CouponExpires: "01/20/2026" }, "CouponExpires", COUPON_EXPIRES_INVALID),
      refused("an expiry yesterday", { CouponCode: "SAVE10", CouponExpires: "2026-01-14" }, "CouponExpires", COUPON_EXPIRES_PAST),
      refused("an expiry today in UTC but yesterday where the business is", { CouponCode: "SAVE10", CouponExpires: "2026-01-15" }, "CouponExpires", COUPON_EXPIRES_PAST, {
        before: setZone("Pacific/Kiritimati"),
      }),
      refused("an expiry 367 days ahead", { CouponCode: "SAVE10", CouponExpires: "2027-01-17" }, "CouponExpires", COUPON_EXPIRES_TOO_FAR),
      refused("an expiry without an offer", { CouponExpires: "2026-01-20" }, "CouponExpires", COUPON_EXPIRES_WITHOUT_OFFER),
      refused("an offer that ends before its scheduled send", { CouponCode: "SAVE10", CouponExpires: "2026-01-20", ScheduledFor: "2026-01-22T09:00:00Z" }, "CouponExpires", COUPON_EXPIRES_BEFORE_SEND),
      refused("another owner's business is still refused first", { CouponCode: "ab" }, "CouponCode", COUPON_CODE_INVALID, { as: "other" }),
      publish("another owner with a good offer: 403, nothing written", 403, { CouponCode: "SAVE10" }, { as: "other" }),
      publish("the admin may publish an offer for any business", 200, { CouponCode: "ADMIN1" }, {
        as: "admin",
        after: (w) => expect(couponRows(w).map((c) => c.code)).toEqual(["ADMIN1"]),
      }),
      publish("anonymous: 401", 401, { CouponCode: "SAVE10" }, { as: undefined }),
      request<World>("owner", "POST", UPDATE)("a new text for a unique-code broadcast must keep {code}", 400, {
        before: async (w) => {
          scheduledId = await scheduled(w, { uniqueCoupons: true, messageText: "Code {code}" });
        },
        raw: () => form({ BroadcastId: String(scheduledId), MessageText: "No code here" }),
        headers: FORM,
        fields: { MessageText: UNIQUE_NEEDS_PLACEHOLDER },
      }),
      request<World>("owner", "POST", UPDATE)("a new text may not bring {code} to a broadcast without unique codes", 400, {
        before: async (w) => {
          scheduledId = await scheduled(w, { couponCode: "SAVE10" });
        },
        raw: () => form({ BroadcastId: String(scheduledId), MessageText: "Show {code}" }),
        headers: FORM,
        fields: { MessageText: PLACEHOLDER_WITHOUT_UNIQUE },
      }),
      request<World>("owner", "POST", UPDATE)("a new time after the offer's end is refused", 400, {
        before: async (w) => {
          scheduledId = await scheduled(w, { couponCode: "SAVE10", couponExpires: "2026-01-17" });
        },
        raw: () => form({ BroadcastId: String(scheduledId), ScheduledFor: "2026-01-18T09:00:00Z" }),
        headers: FORM,
        fields: { ScheduledFor: COUPON_EXPIRES_BEFORE_SEND },
      }),
      request<World>("owner", "POST", UPDATE)("a new text that keeps {code} is taken", 200, {
        before: async (w) => {
          scheduledId = await scheduled(w, { uniqueCoupons: true, messageText: "Code {code}" });
        },
        raw: () => form({ BroadcastId: String(scheduledId), MessageText: "New code {code}" }),
        headers: FORM,
        expectBody: { broadcast: { messageText: "New code {code}", uniqueCoupons: true, couponCode: null } },
      }),
    ],
    {
      world,
      unchanged: (w) => ({ broadcasts: rows(w), coupons: couponRows(w) }),
      done: (w) => w.ctx.close(),
    },
  );
});
