// The business field `keyword` (issue 24, item 5): 2-20 letters and digits, stored upper-case, matched in any case,
// not a reserved word, one business per keyword on the install's (one) sender number. Owner, other owner, admin.
import { describe, expect } from "bun:test";
import { eq } from "drizzle-orm";
import { businesses } from "../../src/db/schema.ts";
import { KEYWORD_FORMAT, KEYWORD_TAKEN, keywordReserved } from "../../src/schemas/join-keyword.ts";
import { BUSINESS_NOT_FOUND } from "../../src/schemas/texts.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { type ApiScenario, request, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { ownersWorld } from "../helpers/worlds.ts";

type World = ScenarioWorld & ReturnType<typeof ownersWorld>;

function world(): World {
  const ctx = testContext();
  const w = ownersWorld(ctx, { bakery: { sampleImagePath: "/uploads/a-sample.png" } });
  return { ctx, api: apiClient(ctx), tokens: { a: w.ownerA.token, b: w.ownerB.token, admin: w.admin.token }, ...w };
}

/** B's gym holds GYM before each scenario. */
function withGym(w: World): World {
  w.ctx.db.update(businesses).set({ keyword: "GYM" }).where(eqId(w.gym.id)).run();
  return w;
}

const eqId = (id: number) => eq(businesses.id, id);
const keywords = (w: World) => w.ctx.db.select({ id: businesses.id, keyword: businesses.keyword }).from(businesses).all();
const keywordOf = (w: World, id: number) => w.ctx.db.select({ keyword: businesses.keyword }).from(businesses).where(eqId(id)).get()?.keyword;
const update = (id: (w: World) => number) => (w: World) => `/api/business/UpdateBusiness?id=${id(w)}`;
const bakery = (w: World) => w.bakery.id;

const ownerUpdates = request<World>("a", "PUT", update(bakery));

const scenarios: ApiScenario<World>[] = [
  ownerUpdates("the owner sets a keyword: stored upper-case, answered", 200, {
    json: { keyword: " bagel " },
    expectBody: { keyword: "BAGEL" },
    after: (w) => expect(keywordOf(w, w.bakery.id)).toBe("BAGEL"),
  }),
  ownerUpdates("letters and digits, 20 at most", 200, { json: { keyword: "Bagels4Ever2026xyzAB" }, expectBody: { keyword: "BAGELS4EVER2026XYZAB" } }),
  ownerUpdates("\"\" clears it", 200, {
    before: (w) => w.ctx.db.update(businesses).set({ keyword: "BAGEL" }).where(eqId(w.bakery.id)).run(),
    json: { keyword: "" },
    expectBody: { keyword: null },
    after: (w) => expect(keywordOf(w, w.bakery.id)).toBeNull(),
  }),
  ownerUpdates("left out: the keyword stays", 200, {
    before: (w) => w.ctx.db.update(businesses).set({ keyword: "BAGEL" }).where(eqId(w.bakery.id)).run(),
    json: { name: "A Bakery & Co" },
    expectBody: { keyword: "BAGEL" },
  }),
  ownerUpdates("one letter: refused", 400, { json: { keyword: "B" }, fields: { keyword: KEYWORD_FORMAT } }),
  ownerUpdates("21 characters: refused", 400, { json: { keyword: "A".repeat(21) }, fields: { keyword: KEYWORD_FORMAT } }),
  ownerUpdates("a space: refused", 400, { json: { keyword: "hot bagel" }, fields: { keyword: KEYWORD_FORMAT } }),
  ownerUpdates("punctuation: refused", 400, { json: { keyword: "bagel!" }, fields: { keyword: KEYWORD_FORMAT } }),
  ownerUpdates("not text: refused", 400, { json: { keyword: 42 }, fields: { keyword: KEYWORD_FORMAT } }),
  ownerUpdates("STOP (any case) is reserved", 400, { json: { keyword: "stop" }, fields: { keyword: keywordReserved("STOP") } }),
  ownerUpdates("HELP is reserved", 400, { json: { keyword: "Help" }, fields: { keyword: keywordReserved("HELP") } }),
  ownerUpdates("Spanish BAJA is reserved", 400, { json: { keyword: "baja" }, fields: { keyword: keywordReserved("BAJA") } }),
  ownerUpdates("Twilio's REVOKE is reserved", 400, { json: { keyword: "revoke" }, fields: { keyword: keywordReserved("REVOKE") } }),
  ownerUpdates("another owner's business holds it (any case): 409 naming the field, nothing written", 409, {
    before: withGym,
    json: { keyword: "gym" },
    expectBody: { code: "conflict", error: KEYWORD_TAKEN },
    fields: { keyword: KEYWORD_TAKEN },
  }),
  ownerUpdates("the owner's own other business holds it: 409 too", 409, {
    before: (w) => w.ctx.db.update(businesses).set({ keyword: "CAFE" }).where(eqId(w.cafe.id)).run(),
    json: { keyword: "Cafe" },
    fields: { keyword: KEYWORD_TAKEN },
  }),
  ownerUpdates("saving the business's own keyword again is fine", 200, {
    before: (w) => w.ctx.db.update(businesses).set({ keyword: "BAGEL" }).where(eqId(w.bakery.id)).run(),
    json: { keyword: "Bagel" },
    expectBody: { keyword: "BAGEL" },
  }),
  {
    name: "another owner cannot set it: 404, nothing written",
    as: "b",
    method: "PUT",
    path: update(bakery),
    json: { keyword: "BAGEL" },
    status: 404,
    expectBody: { error: BUSINESS_NOT_FOUND },
  },
  {
    name: "the admin sets it on an owner's business",
    as: "admin",
    method: "PUT",
    path: update(bakery),
    json: { keyword: "Rolls" },
    status: 200,
    expectBody: { keyword: "ROLLS" },
    after: (w) => expect(keywordOf(w, w.bakery.id)).toBe("ROLLS"),
  },
  {
    name: "the admin is refused a taken keyword too",
    as: "admin",
    method: "PUT",
    path: update(bakery),
    before: withGym,
    json: { keyword: "GYM" },
    status: 409,
    fields: { keyword: KEYWORD_TAKEN },
  },
  {
    name: "the keyword is public (the poster and the subscribe page print it)",
    method: "GET",
    path: (w) => `/api/business/GetBusinessById?id=${w.gym.id}`,
    before: withGym,
    status: 200,
    expectBody: { keyword: "GYM" },
  },
];

describe("the business keyword", () => {
  runScenarios<World>(scenarios, { world, unchanged: keywords, done: (w) => w.ctx.close() });
});
