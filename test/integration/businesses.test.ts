// Businesses API (/api/business/*), scenario by scenario: each row says who calls what with which body, what must
// come back, and what must (not) have changed — businesses, uploads and the files in <dataDir>/uploads.
// Cast: owner A, owner B, an admin, and anonymous visitors.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { businesses, businessTypes, uploads } from "../../src/db/schema.ts";
import { DEFAULT_SUCCESS_MESSAGE, MESSAGES_PER_WEEK_RANGE } from "../../src/schemas/businesses.ts";
import { DEFAULT_QR_MESSAGE } from "../../src/schemas/poster-text.ts";
import { BUSINESS_NOT_FOUND } from "../../src/schemas/texts.ts";
import { TIME_ZONE_UNKNOWN } from "../../src/schemas/time-zones.ts";
import { LOGO_NOT_YOURS, SAMPLE_NOT_YOURS } from "../../src/services/businesses.ts";
import { IMAGE_IN_USE, IMAGE_NOT_FOUND, type StoredImage } from "../../src/services/uploads.ts";
import { type ApiClient, apiClient, signUp } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { type BusinessRow, type BusinessTypeRow, insertBusiness, insertBusinessType } from "../helpers/factories.ts";
import { GIF, JPEG, PNG } from "../helpers/images.ts";
import { type ApiScenario, request, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";

type Method = Scenario["method"];

interface World extends ScenarioWorld {
  ids: Record<"a" | "b" | "admin", number>;
  bakery: BusinessTypeRow;
  /** An inactive type: kept by aHidden, not offered for new choices. */
  florist: BusinessTypeRow;
  /** A's active business with a logo and a sample image. */
  aShop: BusinessRow;
  /** A's inactive business (of the inactive type). */
  aHidden: BusinessRow;
  bShop: BusinessRow;
  img: {
    aLogo: StoredImage;
    aSample: StoredImage;
    /** A's uploads that no business uses yet. */
    aSpareLogo: StoredImage;
    aSpareSample: StoredImage;
    aBroadcast: StoredImage;
    bLogo: StoredImage;
    bSample: StoredImage;
    bSpareLogo: StoredImage;
    bSpareSample: StoredImage;
  };
}

type Scenario = ApiScenario<World>;

const BASE = "/api/business";
const ALL = `${BASE}/GetAllBusinesses`;
const MINE = `${BASE}/GetMyBusinesses`;
const byId = (id: number | string) => `${BASE}/GetBusinessById?id=${id}`;
const byType = (id: number | string) => `${BASE}/GetBusinessesByType?businessTypeId=${id}`;
const CREATE = `${BASE}/CreateBusiness`;
const update = (id: number | string) => `${BASE}/UpdateBusiness?id=${id}`;
const remove = (id: number | string) => `${BASE}/DeleteBusiness?id=${id}`;
const deleteLogo = (name: string) => `${BASE}/DeleteLogo?fileName=${encodeURIComponent(name)}`;
const deleteSample = (name: string) => `${BASE}/DeleteSampleImage?fileName=${encodeURIComponent(name)}`;
const UNKNOWN_ID = 999_999;

// The requests most rows make.
const createA = request<World>("a", "POST", CREATE);
const updateA = request<World>("a", "PUT", (w) => update(w.aShop.id));
const updateAsAdmin = request<World>("admin", "PUT", (w) => update(w.aShop.id));
const updateHidden = request<World>("a", "PUT", (w) => update(w.aHidden.id));

const LOGIN_FIRST = { code: "unauthorized", error: "Please log in to continue." };
const NOT_FOUND = { code: "not_found", error: BUSINESS_NOT_FOUND };
const invalid = (fields: Record<string, string>) => ({ code: "validation_failed", error: Object.values(fields)[0], fields });

const PUBLIC_KEYS = [
  "address",
  "businessType",
  "businessTypeId",
  "createdAt",
  "doubleOptIn",
  "id",
  "isActive",
  "keyword",
  "logoImagePath",
  "messagesPerWeek",
  "name",
  "phone",
  "posterOffer",
  "qrMessage",
  "sampleImagePath",
  "sampleProductText",
  "successMessage",
];
const FULL_KEYS = [...PUBLIC_KEYS, "ownerId", "timeZone"].sort();

/** What the API answers for a stored row (full view adds ownerId). */
function shape(w: World, row: BusinessRow, full: boolean) {
  const type = [w.bakery, w.florist].find((t) => t.id === row.businessTypeId);
  return {
    id: row.id,
    name: row.name,
    businessTypeId: row.businessTypeId,
    businessType: type ? { id: type.id, name: type.name } : null,
    address: row.address,
    phone: row.phone,
    logoImagePath: row.logoImagePath,
    sampleImagePath: row.sampleImagePath,
    sampleProductText: row.sampleProductText,
    qrMessage: row.qrMessage || DEFAULT_QR_MESSAGE,
    successMessage: row.successMessage || DEFAULT_SUCCESS_MESSAGE,
    posterOffer: row.posterOffer,
    messagesPerWeek: row.messagesPerWeek,
    doubleOptIn: row.doubleOptIn,
    keyword: row.keyword,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    ...(full && { ownerId: row.ownerId, timeZone: row.timeZone }),
  };
}

/** A complete valid body for A, using A's unused uploads. */
function validBody(w: World, overrides: Record<string, unknown> = {}) {
  return {
    name: "Corner Bakery",
    businessTypeId: w.bakery.id,
    address: "12 Baker Street, Springfield",
    phone: "(415) 555-0134",
    sampleProductText: "Sourdough loaf, baked at dawn",
    qrMessage: "Scan for fresh deals",
    successMessage: "Thanks! Fresh deals are on their way.",
    isActive: true,
    logoImagePath: w.img.aSpareLogo.filePath,
    sampleImagePath: w.img.aSpareSample.filePath,
    ...overrides,
  };
}

/** A create by A whose `field` is `sent`: answered and stored as `stored`. */
function storedOnCreate(name: string, field: keyof BusinessRow, sent: unknown, stored: unknown): Scenario {
  return {
    name,
    method: "POST",
    path: CREATE,
    as: "a",
    json: (w: World) => validBody(w, { [field]: sent }),
    status: 201,
    expectBody: { [field]: stored },
    after: (w, res) => expect<unknown>(rowOf(w, res.body.id)?.[field]).toBe(stored),
  };
}

/** Creates by A refused for each value of `field`: a 400 naming it with `message`, nothing stored (the runner checks). */
function refusedOnCreate(field: keyof BusinessRow, values: unknown[], message: string): Scenario[] {
  return values.map((sent) => ({
    name: `create with ${field} ${JSON.stringify(sent)}: 400 naming the field, nothing stored`,
    method: "POST",
    path: CREATE,
    as: "a",
    json: (w: World) => validBody(w, { [field]: sent }),
    status: 400,
    expectBody: invalid({ [field]: message }),
  }));
}

/** The body the edit form would send for an existing row (every field, current values). */
function bodyOf(row: BusinessRow, overrides: Record<string, unknown> = {}) {
  return {
    name: row.name,
    businessTypeId: row.businessTypeId,
    address: row.address,
    phone: row.phone,
    sampleProductText: row.sampleProductText,
    qrMessage: row.qrMessage ?? "",
    successMessage: row.successMessage ?? "",
    posterOffer: row.posterOffer,
    isActive: row.isActive,
    logoImagePath: row.logoImagePath,
    sampleImagePath: row.sampleImagePath,
    ...overrides,
  };
}

const rowOf = (w: World, id: number) => w.ctx.db.select().from(businesses).all().find((r) => r.id === id);

function snapshot(w: World) {
  const dir = w.ctx.services.uploads.dir;
  return {
    businesses: w.ctx.db.select().from(businesses).orderBy(businesses.id).all(),
    uploads: w.ctx.db.select().from(uploads).orderBy(uploads.id).all(),
    files: readdirSync(dir).sort(),
  };
}

const scenarios: Scenario[] = [
  // ---- public reads ---------------------------------------------------------------------------------------------
  ...(["anon", "a", "b", "admin"] as const).flatMap((as): Scenario[] => [
    {
      name: `list all as ${as}: active businesses only, public fields, by name`,
      method: "GET",
      path: ALL,
      as,
      status: 200,
      expect: (body, w) => {
        expect(body).toEqual([shape(w, w.bShop, false), shape(w, w.aShop, false)]);
        for (const b of body) expect(Object.keys(b).sort()).toEqual(PUBLIC_KEYS);
      },
    },
    {
      name: `by type as ${as}: active businesses of that type`,
      method: "GET",
      path: (w) => byType(w.bakery.id),
      as,
      status: 200,
      expect: (body, w) => expect(body).toEqual([shape(w, w.bShop, false), shape(w, w.aShop, false)]),
    },
  ]),
  { name: "by type: the inactive business is not listed", method: "GET", path: (w) => byType(w.florist.id), as: "a", status: 200, expectBody: [] },
  { name: "by type: unknown type", method: "GET", path: byType(UNKNOWN_ID), as: "anon", status: 200, expectBody: [] },
  request<World>("anon", "GET", byType("bakery"))("by type: non-numeric type id", 400, {
    expectBody: { code: "validation_failed", error: "The businessTypeId parameter must be a positive whole number.", fields: { businessTypeId: "invalid" } },
  }),
  { name: "by type: no type id", method: "GET", path: `${BASE}/GetBusinessesByType`, as: "anon", status: 400, expectBody: { fields: { businessTypeId: "required" } } },

  // ---- my businesses --------------------------------------------------------------------------------------------
  { name: "mine as anon", method: "GET", path: MINE, as: "anon", status: 401, expectBody: LOGIN_FIRST },
  request<World>("a", "GET", MINE)("mine as A: both of A's, inactive included, newest first, full records", 200, {
    expect: (body, w) => {
      expect(body).toEqual([shape(w, w.aHidden, true), shape(w, w.aShop, true)]);
      for (const b of body) expect(Object.keys(b).sort()).toEqual(FULL_KEYS);
    },
  }),
  { name: "mine as B: only B's", method: "GET", path: MINE, as: "b", status: 200, expectBody: (w: World) => [shape(w, w.bShop, true)] },
  { name: "mine as admin: the admin's own (none)", method: "GET", path: MINE, as: "admin", status: 200, expectBody: [] },

  // ---- get by id ------------------------------------------------------------------------------------------------
  // Who sees which record: the full one for its owner and the admin, the public one for others, none of an inactive one.
  ...(
    [
      ["get an active business as anon: public fields", "anon", "aShop", "public"],
      ["get an inactive business as anon", "anon", "aHidden", "none"],
      ["get own inactive business as A: full record", "a", "aHidden", "full"],
      ["get own active business as A: full record", "a", "aShop", "full"],
      ["get A's active business as B: the public view only", "b", "aShop", "public"],
      ["get A's inactive business as B", "b", "aHidden", "none"],
      ["get A's inactive business as admin: full record", "admin", "aHidden", "full"],
    ] as const
  ).map(([name, as, row, view]) =>
    request<World>(as, "GET", (w) => byId(w[row].id))(
      name,
      view === "none" ? 404 : 200,
      view === "none" ? { expectBody: NOT_FOUND } : { expect: (body, w) => expect(body).toEqual(shape(w, w[row], view === "full")) },
    ),
  ),
  { name: "get unknown id", method: "GET", path: byId(UNKNOWN_ID), as: "a", status: 404, expectBody: NOT_FOUND },
  ...["abc", "0", "-1", "1.5", "1e3", "%20"].map(
    (id): Scenario => ({
      name: `get with invalid id "${id}"`,
      method: "GET",
      path: byId(id),
      as: "anon",
      status: 400,
      expectBody: { code: "validation_failed", error: "The id parameter must be a positive whole number.", fields: { id: "invalid" } },
    }),
  ),
  { name: "get without id", method: "GET", path: `${BASE}/GetBusinessById`, as: "anon", status: 400, expectBody: { fields: { id: "required" } } },

  // ---- create ---------------------------------------------------------------------------------------------------
  { name: "create as anon", method: "POST", path: CREATE, as: "anon", json: (w: World) => validBody(w), status: 401, expectBody: LOGIN_FIRST },
  { name: "create without the XSRF header", method: "POST", path: CREATE, as: "a", noXsrf: true, json: (w: World) => validBody(w), status: 403, expectBody: { code: "xsrf_failed" } },
  createA("create as A: 201, trimmed, owned by A, images kept", 201, {
    json: (w: World) => validBody(w, { name: "  Corner Bakery  ", address: "  12 Baker Street, Springfield " }),
    expect: (body, w) => {
      expect(Object.keys(body).sort()).toEqual(FULL_KEYS);
      expect(body).toMatchObject({
        name: "Corner Bakery",
        address: "12 Baker Street, Springfield",
        businessType: { id: w.bakery.id, name: "Bakery" },
        ownerId: w.ids.a,
        isActive: true,
        logoImagePath: w.img.aSpareLogo.filePath,
        sampleImagePath: w.img.aSpareSample.filePath,
        qrMessage: "Scan for fresh deals",
      });
    },
    after: (w) => {
      const rows = w.ctx.db.select().from(businesses).all();
      expect(rows).toHaveLength(4);
      expect(rows.at(-1)).toMatchObject({ ownerId: w.ids.a, name: "Corner Bakery", phone: "(415) 555-0134" });
    },
  }),
  request<World>("b", "POST", CREATE)("create without logo and messages: defaults answered, nothing stored for them", 201, {
    json: (w: World) => ({ ...validBody(w, { logoImagePath: null, sampleImagePath: w.img.bSpareSample.filePath }), qrMessage: undefined, successMessage: "" }),
    after: (w) => expect(w.ctx.db.select().from(businesses).all().at(-1)).toMatchObject({ logoImagePath: null, qrMessage: "", successMessage: "" }),
    expect: (body, w) => {
      expect(body).toMatchObject({ logoImagePath: null, qrMessage: DEFAULT_QR_MESSAGE, successMessage: DEFAULT_SUCCESS_MESSAGE, ownerId: w.ids.b });
    },
  }),
  createA("create with an empty logo path: no logo", 201, { json: (w: World) => validBody(w, { logoImagePath: "" }), expectBody: { logoImagePath: null } }),
  createA("create with the bare file name of an upload: stored as its /uploads/ path", 201, {
    json: (w: World) => validBody(w, { sampleImagePath: w.img.aSpareSample.fileName }), expectBody: (w: World) => ({ sampleImagePath: w.img.aSpareSample.filePath }),
  }),
  createA("create with an image another business of A already shows", 201, {
    json: (w: World) => validBody(w, { logoImagePath: w.img.aLogo.filePath }), expectBody: (w: World) => ({ logoImagePath: w.img.aLogo.filePath }),
  }),
  request<World>("admin", "POST", CREATE)("create as admin without a sample image", 400, {
    json: (w: World) => validBody(w, { logoImagePath: null, sampleImagePath: null }), expectBody: invalid({ sampleImagePath: "Sample product image is required" }),
  }),
  ...["+1 (415) 555-0134", "415.555.0134", "4155550134", "1-415-555-0134", "+14155550134", "415 555 0134"].map(
    (phone) => createA(`create with phone "${phone}"`, 201, { json: (w: World) => validBody(w, { phone }), expectBody: { phone } }),
  ),
  { name: "create with name of exactly 2", method: "POST", path: CREATE, as: "a", json: (w: World) => validBody(w, { name: "Ab" }), status: 201 },
  { name: "create with name of exactly 200", method: "POST", path: CREATE, as: "a", json: (w: World) => validBody(w, { name: "n".repeat(200) }), status: 201 },
  { name: "create with address of exactly 500", method: "POST", path: CREATE, as: "a", json: (w: World) => validBody(w, { address: "a".repeat(500) }), status: 201 },
  createA("create with sample text of exactly 100 and messages of exactly 200", 201, {
    json: (w: World) => validBody(w, { sampleProductText: "s".repeat(100), qrMessage: "q".repeat(200), successMessage: "m".repeat(200) }),
  }),
  // "Up to N messages per week" (issue 11): 4 unless given, a whole number 1..50 (a form sends it as text).
  createA("create without messagesPerWeek: 4 stored and answered", 201, {
    json: (w: World) => validBody(w), expectBody: { messagesPerWeek: 4 }, after: (w, res) => expect(rowOf(w, res.body.id)?.messagesPerWeek).toBe(4),
  }),
  ...([[1, 1], [50, 50], [" 7 ", 7]] as const).map(([sent, stored]) =>
    storedOnCreate(`create with messagesPerWeek ${JSON.stringify(sent)}: ${stored} stored`, "messagesPerWeek", sent, stored),
  ),
  ...refusedOnCreate("messagesPerWeek", [0, 51, 2.5, -3, "", "abc", "1e1", true, null], MESSAGES_PER_WEEK_RANGE),
  updateA("update messagesPerWeek alone: stored, the other fields kept", 200, {
    json: { messagesPerWeek: "12" }, expectBody: { messagesPerWeek: 12 }, after: (w) => expect(rowOf(w, w.aShop.id)).toMatchObject({ messagesPerWeek: 12, name: w.aShop.name, phone: w.aShop.phone }),
  }),
  updateA("update messagesPerWeek 99: 400 naming the field, nothing stored", 400, { json: { messagesPerWeek: 99 }, expectBody: invalid({ messagesPerWeek: MESSAGES_PER_WEEK_RANGE }) }),
  // The time zone quiet hours use for a customer whose number tells none: an IANA name, or empty for the server's.
  storedOnCreate("create with a time zone: stored in Intl's spelling, answered to the owner", "timeZone", " america/chicago ", "America/Chicago"),
  ...[undefined, null, "", "  "].map((sent) =>
    storedOnCreate(`create with timeZone ${JSON.stringify(sent) ?? "left out"}: none stored, the server's`, "timeZone", sent, null),
  ),
  ...refusedOnCreate("timeZone", ["Mars/Olympus", "+05:00", "Etc/Unknown", 5, true], TIME_ZONE_UNKNOWN),
  updateA("update the time zone alone: stored, the other fields kept; cleared with empty", 200, {
    json: { timeZone: "Europe/Lisbon" }, expectBody: { timeZone: "Europe/Lisbon" },
    after: async (w) => {
      expect(rowOf(w, w.aShop.id)).toMatchObject({ timeZone: "Europe/Lisbon", name: w.aShop.name, messagesPerWeek: w.aShop.messagesPerWeek });
      expect((await w.api.put(update(w.aShop.id), { timeZone: "" }, { token: w.tokens!.a })).body).toMatchObject({ timeZone: null });
      expect(rowOf(w, w.aShop.id)?.timeZone).toBeNull();
    },
  }),
  updateA("update with an unknown time zone: 400 naming the field, the saved one kept", 400, {
    before: (w) => w.ctx.db.update(businesses).set({ timeZone: "Asia/Tokyo" }).run(),
    json: { timeZone: "Asia/Atlantis" },
    expectBody: invalid({ timeZone: TIME_ZONE_UNKNOWN }),
    after: (w) => expect(rowOf(w, w.aShop.id)?.timeZone).toBe("Asia/Tokyo"),
  }),
  // The poster offer: the owner's words (trimmed), "" for none, left out (or null) for the type's keyword deal.
  createA("create with a poster offer: trimmed, stored and answered", 201, {
    json: (w: World) => validBody(w, { posterOffer: "  BREAD DEAL: a free bun with every loaf  " }),
    expectBody: { posterOffer: "BREAD DEAL: a free bun with every loaf" },
    after: (w, res) => expect(rowOf(w, res.body.id)?.posterOffer).toBe("BREAD DEAL: a free bun with every loaf"),
  }),
  createA("create with a poster offer of exactly 100", 201, { json: (w: World) => validBody(w, { posterOffer: "o".repeat(100) }), expectBody: { posterOffer: "o".repeat(100) } }),
  createA("create with an empty poster offer: none, stored as empty (not the keyword deal)", 201, {
    json: (w: World) => validBody(w, { posterOffer: "   " }), expectBody: { posterOffer: "" }, after: (w, res) => expect(rowOf(w, res.body.id)?.posterOffer).toBe(""),
  }),
  createA("create without a poster offer: null, the type's keyword deal", 201, {
    json: (w: World) => validBody(w), expectBody: { posterOffer: null }, after: (w, res) => expect(rowOf(w, res.body.id)?.posterOffer).toBeNull(),
  }),
  updateA("update sets the poster offer; get answers it, to the public too", 200, {
    json: { posterOffer: "HALF-PRICE HOUR: every loaf after 5pm" }, expectBody: { posterOffer: "HALF-PRICE HOUR: every loaf after 5pm" },
    after: async (w) => {
      expect(rowOf(w, w.aShop.id)?.posterOffer).toBe("HALF-PRICE HOUR: every loaf after 5pm");
      expect((await w.api.get(byId(w.aShop.id))).body).toMatchObject({ posterOffer: "HALF-PRICE HOUR: every loaf after 5pm" });
    },
  }),
  updateA("update clears the poster offer", 200, {
    before: (w) => w.ctx.db.update(businesses).set({ posterOffer: "OLD DEAL: gone soon" }).run(),
    json: (w: World) => bodyOf(rowOf(w, w.aShop.id)!, { posterOffer: "" }),
    expectBody: { posterOffer: "" },
    after: (w) => expect(rowOf(w, w.aShop.id)?.posterOffer).toBe(""),
  }),
  updateA("update with a poster offer too long", 400, {
    json: { posterOffer: "o".repeat(101) }, expectBody: invalid({ posterOffer: "Offer cannot exceed 100 characters" }), after: (w) => expect(rowOf(w, w.aShop.id)?.posterOffer).toBeNull(),
  }),
  { name: "create with the type id as a string", method: "POST", path: CREATE, as: "a", json: (w: World) => validBody(w, { businessTypeId: String(w.bakery.id) }), status: 201 },
  createA("create ignores id, ownerId and createdAt in the body", 201, {
    json: (w: World) => ({ ...validBody(w), id: UNKNOWN_ID, ownerId: w.ids.b, createdAt: "1999-01-01T00:00:00.000Z" }),
    expect: (body, w) => {
      expect(body.id).not.toBe(UNKNOWN_ID);
      expect(body.ownerId).toBe(w.ids.a);
      expect(body.createdAt).not.toStartWith("1999");
    },
  }),
  // The spec's validation texts, one field at a time.
  ...(
    [
      ["name missing", { name: undefined }, { name: "Business name is required" }],
      ["name empty", { name: "" }, { name: "Business name is required" }],
      ["name blank", { name: "   " }, { name: "Business name is required" }],
      ["name too short", { name: "A" }, { name: "Name must be at least 2 characters long" }],
      ["name too long", { name: "n".repeat(201) }, { name: "Name cannot exceed 200 characters" }],
      ["type missing", { businessTypeId: undefined }, { businessTypeId: "Business type is required" }],
      ["type empty", { businessTypeId: "" }, { businessTypeId: "Business type is required" }],
      ["type zero", { businessTypeId: 0 }, { businessTypeId: "Business type is required" }],
      ["type not a number", { businessTypeId: "bakery" }, { businessTypeId: "Business type is required" }],
      ["type unknown", { businessTypeId: UNKNOWN_ID }, { businessTypeId: "Business type is required" }],
      ["address missing", { address: undefined }, { address: "Business address is required" }],
      ["address blank", { address: "  " }, { address: "Business address is required" }],
      ["address too short", { address: "Main" }, { address: "Address must be at least 5 characters long" }],
      ["address too long", { address: "a".repeat(501) }, { address: "Address cannot exceed 500 characters" }],
      ["phone missing", { phone: undefined }, { phone: "Phone number is required" }],
      ["phone not US style", { phone: "12345" }, { phone: "Please enter a valid phone number" }],
      ["phone with letters", { phone: "415-555-CAKE" }, { phone: "Please enter a valid phone number" }],
      ["phone with another country code", { phone: "+44 20 7946 0958" }, { phone: "Please enter a valid phone number" }],
      ["sample text missing", { sampleProductText: undefined }, { sampleProductText: "Sample product description is required" }],
      ["sample text too long", { sampleProductText: "s".repeat(101) }, { sampleProductText: "Description cannot exceed 100 characters" }],
      ["qr message too long", { qrMessage: "q".repeat(201) }, { qrMessage: "Message cannot exceed 200 characters" }],
      ["success message too long", { successMessage: "m".repeat(201) }, { successMessage: "Message cannot exceed 200 characters" }],
      ["poster offer too long", { posterOffer: "o".repeat(101) }, { posterOffer: "Offer cannot exceed 100 characters" }],
      ["poster offer not text", { posterOffer: 25 }, { posterOffer: "Offer must be text" }],
      ["sample image missing", { sampleImagePath: undefined }, { sampleImagePath: "Sample product image is required" }],
      ["sample image empty", { sampleImagePath: "" }, { sampleImagePath: "Sample product image is required" }],
      ["isActive a string", { isActive: "yes" }, { isActive: "isActive must be true or false" }],
    ] as const
  ).map(
    ([what, overrides, fields]) => createA(`create: ${what}`, 400, { json: (w: World) => validBody(w, overrides), expectBody: invalid(fields) }),
  ),
  createA("create: an inactive type is not offered", 400, { json: (w: World) => validBody(w, { businessTypeId: w.florist.id }), expectBody: invalid({ businessTypeId: "Business type is required" }) }),
  createA("create: every required field missing", 400, {
    json: {},
    expectBody: invalid({
      name: "Business name is required",
      businessTypeId: "Business type is required",
      address: "Business address is required",
      phone: "Phone number is required",
      sampleProductText: "Sample product description is required",
      sampleImagePath: "Sample product image is required",
    }),
  }),
  // Image paths must name the caller's own logo/sample uploads.
  ...(
    [
      ["B's logo as logo", (w: World) => ({ logoImagePath: w.img.bSpareLogo.filePath }), { logoImagePath: LOGO_NOT_YOURS }],
      ["B's sample as sample", (w: World) => ({ sampleImagePath: w.img.bSpareSample.filePath }), { sampleImagePath: SAMPLE_NOT_YOURS }],
      ["an unknown stored name", () => ({ logoImagePath: `/uploads/${"f".repeat(32)}.png` }), { logoImagePath: LOGO_NOT_YOURS }],
      ["a path outside uploads", () => ({ sampleImagePath: "/etc/passwd" }), { sampleImagePath: SAMPLE_NOT_YOURS }],
      ["a traversal path", (w: World) => ({ sampleImagePath: `/uploads/../${w.img.aSpareSample.fileName}` }), { sampleImagePath: SAMPLE_NOT_YOURS }],
      ["an external URL", () => ({ logoImagePath: "https://evil.example/logo.png" }), { logoImagePath: LOGO_NOT_YOURS }],
      ["A's broadcast image", (w: World) => ({ logoImagePath: w.img.aBroadcast.filePath }), { logoImagePath: LOGO_NOT_YOURS }],
    ] as const
  ).map(
    ([what, overrides, fields]) => createA(`create with ${what}`, 400, { json: (w: World) => validBody(w, overrides(w)), expectBody: invalid(fields) }),
  ),
  createA("create with malformed JSON", 400, {
    raw: '{"name": "Gym",', headers: { "content-type": "application/json" }, expectBody: { code: "validation_failed", error: "Request body must be valid JSON." },
  }),
  createA("create with a form body", 415, { raw: "name=Gym", headers: { "content-type": "application/x-www-form-urlencoded" }, expectBody: { code: "unsupported_media_type" } }),
  createA("create with a JSON array", 400, { raw: "[]", headers: { "content-type": "application/json" }, expectBody: { error: "Request body must be a JSON object." } }),
  createA("create with a body over 64 KB", 413, { json: (w: World) => validBody(w, { name: "n".repeat(70_000) }), expectBody: { code: "payload_too_large" } }),

  // ---- update ---------------------------------------------------------------------------------------------------
  { name: "update as anon", method: "PUT", path: (w) => update(w.aShop.id), as: "anon", json: (w: World) => bodyOf(w.aShop), status: 401, expectBody: LOGIN_FIRST },
  updateA("update own business as A: every field replaced", 200, {
    expectBody: (w: World) => ({ id: w.aShop.id, name: "Renamed Bakery", isActive: false, ownerId: w.ids.a, logoImagePath: w.img.aSpareLogo.filePath }),
    json: (w: World) =>
      validBody(w, { name: "Renamed Bakery", isActive: false, logoImagePath: w.img.aSpareLogo.filePath, sampleImagePath: w.img.aSpareSample.filePath }),
    after: (w) =>
      expect(rowOf(w, w.aShop.id)).toMatchObject({
        name: "Renamed Bakery",
        isActive: false,
        ownerId: w.ids.a,
        createdAt: w.aShop.createdAt,
        sampleImagePath: w.img.aSpareSample.filePath,
      }),
  }),
  updateA("update keeping the current images", 200, {
    json: (w: World) => bodyOf(w.aShop, { name: "Same Images" }), expectBody: (w: World) => ({ name: "Same Images", logoImagePath: w.img.aLogo.filePath, sampleImagePath: w.img.aSample.filePath }),
  }),
  updateA("update removing the logo clears its path", 200, {
    json: (w: World) => bodyOf(w.aShop, { logoImagePath: null }), expectBody: { logoImagePath: null },
    after: (w) => {
      expect(rowOf(w, w.aShop.id)?.logoImagePath).toBeNull();
      // The image itself stays A's (it may be chosen again or deleted).
      expect(readdirSync(w.ctx.services.uploads.dir)).toContain(w.img.aLogo.fileName);
    },
  }),
  updateA("update removing the sample image is refused (it is required)", 400, {
    json: (w: World) => bodyOf(w.aShop, { sampleImagePath: "" }), expectBody: invalid({ sampleImagePath: "Sample product image is required" }),
  }),
  updateHidden("update leaving fields out keeps them (isActive stays false, images stay)", 200, {
    json: { name: "Quiet Florist" }, expectBody: (w: World) => ({ name: "Quiet Florist", isActive: false, sampleImagePath: w.aHidden.sampleImagePath, businessTypeId: w.florist.id }),
  }),
  updateHidden("update keeps an inactive type the business already has", 200, {
    json: (w: World) => bodyOf(w.aHidden, { address: "1 New Street, Springfield" }), expectBody: (w: World) => ({ businessTypeId: w.florist.id, address: "1 New Street, Springfield" }),
  }),
  updateA("update cannot switch to an inactive type", 400, {
    json: (w: World) => bodyOf(w.aShop, { businessTypeId: w.florist.id }), expectBody: invalid({ businessTypeId: "Business type is required" }),
  }),
  updateA("update with a validation error", 400, { json: (w: World) => bodyOf(w.aShop, { address: "x" }), expectBody: invalid({ address: "Address must be at least 5 characters long" }) }),
  updateAsAdmin("update as admin: an owner's business, owner and images kept", 200, {
    json: (w: World) => bodyOf(w.aShop, { name: "Moderated Name" }),
    expectBody: (w: World) => ({ name: "Moderated Name", ownerId: w.ids.a, logoImagePath: w.img.aLogo.filePath }),
    after: (w) => expect(rowOf(w, w.aShop.id)).toMatchObject({ name: "Moderated Name", ownerId: w.ids.a }),
  }),
  updateAsAdmin("update as admin: may pick another of the owner's images", 200, {
    json: (w: World) => bodyOf(w.aShop, { logoImagePath: w.img.aSpareLogo.filePath }), expectBody: (w: World) => ({ logoImagePath: w.img.aSpareLogo.filePath }),
  }),
  updateAsAdmin("update as admin: not a third owner's image", 400, {
    json: (w: World) => bodyOf(w.aShop, { logoImagePath: w.img.bSpareLogo.filePath }), expectBody: invalid({ logoImagePath: LOGO_NOT_YOURS }),
  }),
  { name: "update unknown id", method: "PUT", path: update(UNKNOWN_ID), as: "a", json: (w: World) => validBody(w), status: 404, expectBody: NOT_FOUND },
  { name: "update without id", method: "PUT", path: `${BASE}/UpdateBusiness`, as: "a", json: (w: World) => validBody(w), status: 400, expectBody: { fields: { id: "required" } } },

  // ---- delete ---------------------------------------------------------------------------------------------------
  { name: "delete as anon", method: "DELETE", path: (w) => remove(w.aShop.id), as: "anon", status: 401, expectBody: LOGIN_FIRST },
  request<World>("a", "DELETE", (w) => remove(w.aShop.id))("delete own business as A", 200, {
    expectBody: { message: "Business deleted." },
    after: (w) => {
      expect(rowOf(w, w.aShop.id)).toBeUndefined();
      expect(rowOf(w, w.aHidden.id)).toBeDefined();
      expect(rowOf(w, w.bShop.id)).toBeDefined();
    },
  }),
  { name: "delete as admin: any business", method: "DELETE", path: (w) => remove(w.bShop.id), as: "admin", status: 200, after: (w) => expect(rowOf(w, w.bShop.id)).toBeUndefined() },
  { name: "delete unknown id", method: "DELETE", path: remove(UNKNOWN_ID), as: "a", status: 404, expectBody: NOT_FOUND },
  { name: "delete with invalid id", method: "DELETE", path: remove("1;drop"), as: "a", status: 400, expectBody: { fields: { id: "invalid" } } },

  // ---- images by file name --------------------------------------------------------------------------------------
  request<World>("a", "DELETE", (w) => deleteLogo(w.img.aSpareLogo.fileName))("delete own unused logo", 200, {
    expectBody: { message: "Logo deleted." },
    after: (w) => {
      expect(w.ctx.repos.uploads.findByFileName(w.img.aSpareLogo.fileName)).toBeUndefined();
      expect(readdirSync(w.ctx.services.uploads.dir)).not.toContain(w.img.aSpareLogo.fileName);
    },
  }),
  request<World>("a", "DELETE", (w) => deleteSample(w.img.aSpareSample.filePath))("delete own unused sample image by its /uploads/ path", 200, {
    expectBody: { message: "Sample image deleted." }, after: (w) => expect(readdirSync(w.ctx.services.uploads.dir)).not.toContain(w.img.aSpareSample.fileName),
  }),
  { name: "delete a logo a business shows", method: "DELETE", path: (w) => deleteLogo(w.img.aLogo.fileName), as: "a", status: 409, expectBody: { code: "conflict", error: IMAGE_IN_USE } },
  request<World>("a", "DELETE", (w) => deleteLogo(w.img.aSpareSample.fileName))("delete a sample image through DeleteLogo", 404, { expectBody: { code: "not_found", error: IMAGE_NOT_FOUND } }),
  { name: "delete logo as anon", method: "DELETE", path: (w) => deleteLogo(w.img.aSpareLogo.fileName), as: "anon", status: 401, expectBody: LOGIN_FIRST },
  request<World>("admin", "DELETE", (w) => deleteLogo(w.img.bSpareLogo.fileName))("delete an owner's unused logo as admin", 200, {
    after: (w) => expect(readdirSync(w.ctx.services.uploads.dir)).not.toContain(w.img.bSpareLogo.fileName),
  }),
  { name: "delete logo without a file name", method: "DELETE", path: `${BASE}/DeleteLogo`, as: "a", status: 400, expectBody: { fields: { fileName: "required" } } },
];

// For every call that names a resource: owner B acting on owner A's resource gets 404 and nothing changes.
const ownershipMatrix: Scenario[] = [
  ["GetBusinessById (inactive)", "GET", (w: World) => byId(w.aHidden.id), undefined, NOT_FOUND],
  ["UpdateBusiness", "PUT", (w: World) => update(w.aShop.id), (w: World) => bodyOf(w.aShop, { name: "Stolen" }), NOT_FOUND],
  ["UpdateBusiness (inactive)", "PUT", (w: World) => update(w.aHidden.id), (w: World) => bodyOf(w.aHidden, { isActive: true }), NOT_FOUND],
  ["UpdateBusiness with an invalid body", "PUT", (w: World) => update(w.aShop.id), { name: "" }, NOT_FOUND],
  ["UpdateBusiness with B's own images", "PUT", (w: World) => update(w.aShop.id), (w: World) => bodyOf(w.aShop, { logoImagePath: w.img.bSpareLogo.filePath }), NOT_FOUND],
  ["DeleteBusiness", "DELETE", (w: World) => remove(w.aShop.id), undefined, NOT_FOUND],
  ["DeleteBusiness (inactive)", "DELETE", (w: World) => remove(w.aHidden.id), undefined, NOT_FOUND],
  ["DeleteLogo (unused)", "DELETE", (w: World) => deleteLogo(w.img.aSpareLogo.fileName), undefined, { code: "not_found", error: IMAGE_NOT_FOUND }],
  ["DeleteLogo (in use)", "DELETE", (w: World) => deleteLogo(w.img.aLogo.fileName), undefined, { code: "not_found", error: IMAGE_NOT_FOUND }],
  ["DeleteSampleImage", "DELETE", (w: World) => deleteSample(w.img.aSpareSample.fileName), undefined, { code: "not_found", error: IMAGE_NOT_FOUND }],
  ["DeleteSampleImage by path", "DELETE", (w: World) => deleteSample(w.img.aSpareSample.filePath), undefined, { code: "not_found", error: IMAGE_NOT_FOUND }],
].map(
  ([what, method, path, body, expectBody]): Scenario => ({
    name: `ownership: B on A's ${what}`,
    method: method as Method,
    path: path as (w: World) => string,
    as: "b",
    json: body,
    status: 404,
    expectBody,
  }),
);

// ... and B cannot point a business of their own at A's images.
const imageOwnership: Scenario[] = [
  ["CreateBusiness with A's logo", "POST", () => CREATE, (w: World) => validBody(w, { logoImagePath: w.img.aLogo.filePath, sampleImagePath: w.img.bSpareSample.filePath }), { logoImagePath: LOGO_NOT_YOURS }],
  ["CreateBusiness with A's unused sample", "POST", () => CREATE, (w: World) => validBody(w, { logoImagePath: null }), { sampleImagePath: SAMPLE_NOT_YOURS }],
  ["UpdateBusiness (own) with A's sample", "PUT", (w: World) => update(w.bShop.id), (w: World) => bodyOf(w.bShop, { sampleImagePath: w.img.aSample.filePath }), { sampleImagePath: SAMPLE_NOT_YOURS }],
  ["UpdateBusiness (own) with A's logo by name", "PUT", (w: World) => update(w.bShop.id), (w: World) => bodyOf(w.bShop, { logoImagePath: w.img.aSpareLogo.fileName }), { logoImagePath: LOGO_NOT_YOURS }],
].map(
  ([what, method, path, body, fields]): Scenario => ({
    name: `ownership: B ${what}`,
    method: method as Method,
    path: path as (w: World) => string,
    as: "b",
    json: body,
    status: 400,
    expectBody: invalid(fields as Record<string, string>),
  }),
);

const ALL_SCENARIOS = [...scenarios, ...ownershipMatrix, ...imageOwnership];

/** The cast's world, rebuilt from nothing but the accounts: types, uploads (rows and files) and three businesses. */
async function freshWorld(ctx: TestContext, api: ApiClient, tokens: World["tokens"], ids: World["ids"]): Promise<World> {
  ctx.db.delete(businesses).run();
  ctx.db.delete(uploads).run();
  ctx.db.delete(businessTypes).run();
  rmSync(ctx.services.uploads.dir, { recursive: true, force: true });
  const save = (owner: number, kind: "logo" | "sample" | "broadcast", bytes: Uint8Array) => ctx.services.uploads.saveBytes(owner, kind, bytes);
  const img = {
    aLogo: await save(ids.a, "logo", PNG),
    aSample: await save(ids.a, "sample", JPEG),
    aSpareLogo: await save(ids.a, "logo", GIF),
    aSpareSample: await save(ids.a, "sample", PNG),
    aBroadcast: await save(ids.a, "broadcast", PNG),
    bLogo: await save(ids.b, "logo", PNG),
    bSample: await save(ids.b, "sample", JPEG),
    bSpareLogo: await save(ids.b, "logo", GIF),
    bSpareSample: await save(ids.b, "sample", PNG),
  };
  const bakery = insertBusinessType(ctx, { name: "Bakery" });
  const florist = insertBusinessType(ctx, { name: "Florist", isActive: false });
  const at = (iso: string) => new Date(iso);
  const aShop = insertBusiness(ctx, {
    ownerId: ids.a,
    businessTypeId: bakery.id,
    name: "Rosie's Bakery",
    logoImagePath: img.aLogo.filePath,
    sampleImagePath: img.aSample.filePath,
    qrMessage: "Scan for warm bread",
    createdAt: at("2026-01-01T10:00:00Z"),
  });
  const aHidden = insertBusiness(ctx, {
    ownerId: ids.a,
    businessTypeId: florist.id,
    name: "Closed Florist",
    isActive: false,
    sampleImagePath: img.aSample.filePath,
    createdAt: at("2026-01-02T10:00:00Z"),
  });
  const bShop = insertBusiness(ctx, {
    ownerId: ids.b,
    businessTypeId: bakery.id,
    name: "Bob's Bagels",
    logoImagePath: img.bLogo.filePath,
    sampleImagePath: img.bSample.filePath,
    successMessage: "You're in!",
    createdAt: at("2026-01-03T10:00:00Z"),
  });
  return { ctx, api, tokens, ids, bakery, florist, aShop, aHidden, bShop, img };
}

describe("businesses API", () => {
  let ctx: TestContext;
  let api: ApiClient;
  let dataDir: string;
  const tokens: Record<string, string | undefined> = {};
  const ids = { a: 0, b: 0, admin: 0 };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "nearcast-businesses-"));
    ctx = testContext({ NEARCAST_ADMIN_EMAIL: "admin@example.com" }, { dataDir });
    api = apiClient(ctx);
    for (const [who, email] of [
      ["admin", "admin@example.com"],
      ["a", "owner-a@example.com"],
      ["b", "owner-b@example.com"],
    ] as const) {
      const u = await signUp(api, { email });
      tokens[who] = u.token;
      ids[who] = u.id;
    }
  });
  afterAll(() => {
    ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // A fresh world for every scenario; the accounts are shared to spare the password hashing. Reads and refusals
  // change nothing: no business, no upload row, no file.
  runScenarios(ALL_SCENARIOS, { world: () => freshWorld(ctx, api, tokens, ids), unchanged: snapshot });
});

describe("businesses API across requests", () => {
  test("upload both images, create, read back publicly, edit, deactivate, delete", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "nearcast-businesses-flow-"));
    const ctx = testContext({}, { dataDir });
    try {
      const api = apiClient(ctx);
      const owner = await signUp(api);
      const type = insertBusinessType(ctx, { name: "Pizzeria" });
      const upload = async (path: string, bytes: Uint8Array) => {
        const form = new FormData();
        form.append("file", new File([new Uint8Array(bytes)], "x.png", { type: "image/png" }));
        const res = await api.call("POST", `${BASE}/${path}`, { token: owner.token, body: form });
        expect(res.status).toBe(201);
        return res.body.filePath as string;
      };
      const logo = await upload("UploadLogo", PNG);
      const sample = await upload("UploadSampleImage", JPEG);
      const created = await api.post(
        CREATE,
        {
          name: "Luigi's",
          businessTypeId: type.id,
          address: "5 Via Roma, Springfield",
          phone: "415-555-0199",
          sampleProductText: "Margherita",
          qrMessage: "",
          successMessage: "",
          isActive: true,
          logoImagePath: logo,
          sampleImagePath: sample,
        },
        { token: owner.token },
      );
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      const pub = await api.get(byId(id));
      expect(pub.body).toMatchObject({ name: "Luigi's", businessType: { name: "Pizzeria" }, logoImagePath: logo, sampleImagePath: sample });
      expect(pub.body.ownerId).toBeUndefined();
      // the stored images are served where the business says
      expect((await api.get(logo)).headers.get("content-type")).toBe("image/png");
      expect((await api.get(sample)).headers.get("content-type")).toBe("image/jpeg");

      const newSample = await upload("UploadSampleImage", GIF);
      const edited = await api.put(update(id), { ...created.body, sampleImagePath: newSample, logoImagePath: null, isActive: false }, { token: owner.token });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ sampleImagePath: newSample, logoImagePath: null, isActive: false });
      expect((await api.get(ALL)).body).toEqual([]);
      expect((await api.get(byId(id))).status).toBe(404);
      expect((await api.get(byId(id), { token: owner.token })).body.isActive).toBe(false);
      // the old logo is free again and can be deleted; the sample in use cannot
      expect((await api.del(deleteLogo(logo), { token: owner.token })).status).toBe(200);
      expect((await api.del(deleteSample(newSample), { token: owner.token })).status).toBe(409);
      expect((await api.del(remove(id), { token: owner.token })).status).toBe(200);
      expect((await api.get(MINE, { token: owner.token })).body).toEqual([]);
      expect((await api.del(deleteSample(newSample), { token: owner.token })).status).toBe(200);
    } finally {
      ctx.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
