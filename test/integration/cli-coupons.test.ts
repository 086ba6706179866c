// `nearcast coupons redeem CODE [--phone P] [--json]` (issue 25): the same outcomes as POST /api/coupon/Redeem on the
// same database, each with its exit code (0 redeemed, 4 used, 5 expired, 2 unknown).
import { afterAll, expect, test } from "bun:test";
import { EXIT_COUPON_EXPIRED, EXIT_COUPON_USED, EXIT_OK, EXIT_USAGE } from "../../cli/exit-codes.ts";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { COUPON_CODE_INVALID, COUPON_EXPIRES_PAST, COUPON_UNKNOWN, PLACEHOLDER_WITHOUT_UNIQUE, UNIQUE_NEEDS_PLACEHOLDER } from "../../src/schemas/coupons.ts";
import { businessZone, expiryOf } from "../../src/services/coupons/offer.ts";
import { type ApiResponse, apiClient } from "../helpers/api.ts";
import { nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { ANA, couponShops, EXPIRED_UNIQUE, redemptions, UNIQUE } from "../helpers/coupon-world.ts";
import { cliShop, member } from "../helpers/worlds.ts";

const dirs = tempDataDirs("nearcast-cli-coupons");
afterAll(dirs.removeAll);

const REDEEM = "/api/coupon/Redeem";

function seeded() {
  const dir = dirs.make();
  const seed = withDataDir(dir, (ctx) => {
    const [a, b, admin] = [member(ctx), member(ctx), member(ctx, { role: "admin" })];
    const shops = couponShops(ctx, a.id, b.id);
    return { admin: admin.token, anaId: shops.ana.id, live: shops.live.toISOString(), expired: shops.expired.toISOString(), broadcasts: shops.broadcasts };
  });
  return { dir, ...seed };
}

/** The API's answer, from a server's context on the same data directory (opened for the one call). */
async function api(dir: string, token: string, body: Record<string, string>): Promise<ApiResponse> {
  const ctx = createContext(loadConfig({}, { dataDir: dir }), { logger: new MemoryLogger() });
  try {
    return await apiClient(ctx).post(REDEEM, body, { token });
  } finally {
    ctx.close();
  }
}

const redeem = (dir: string, ...args: string[]) => nearcast(["coupons", "redeem", ...args, "--json"], dir);

test("a unique code: the CLI redeems it, then the API is told when", async () => {
  const s = seeded();
  const run = redeem(s.dir, "ab3k 9qpm");
  expect(run.code).toBe(EXIT_OK);
  const body = JSON.parse(run.stdout);
  expect(body).toMatchObject({ status: "redeemed", code: UNIQUE, kind: "unique", broadcastId: s.broadcasts.unique, businessName: "A Bakery", expiresAt: s.live, customer: { id: s.anaId, phoneMasked: "•••• 0101" } });
  const again = await api(s.dir, s.admin, { code: UNIQUE });
  expect(again.status).toBe(409);
  expect(again.body.redeemedAt).toBe(body.redeemedAt);
  // And the CLI, a second time: the same 409 body, exit 4.
  const third = redeem(s.dir, UNIQUE);
  expect(third.code).toBe(EXIT_COUPON_USED);
  expect(JSON.parse(third.stdout)).toEqual(again.body);
  // Redeemed once, by the operator (no user).
  expect(withDataDir(s.dir, (ctx) => redemptions(ctx))).toEqual([expect.objectContaining({ customerId: s.anaId, redeemedBy: null })]);
});

test("a shared code with a phone: the API redeems it, the CLI is told when (exit 4); without a phone it counts again", async () => {
  const s = seeded();
  // SAVE20: only the bakery's (the admin and the operator see every owner's SAVE10, and redeem the newest: the gym's).
  const first = await api(s.dir, s.admin, { code: "SAVE20", phone: ANA });
  expect(first.status).toBe(200);
  const again = redeem(s.dir, "SAVE20", "--phone", "(415) 555-0101");
  expect(again.code).toBe(EXIT_COUPON_USED);
  expect(JSON.parse(again.stdout)).toMatchObject({ code: "coupon_used", redeemedAt: first.body.redeemedAt });
  const anonymous = redeem(s.dir, "save20");
  expect(anonymous.code).toBe(EXIT_OK);
  expect(JSON.parse(anonymous.stdout)).toMatchObject({ status: "redeemed", kind: "shared", broadcastId: s.broadcasts.save20Live });
  expect(withDataDir(s.dir, (ctx) => redemptions(ctx).length)).toBe(2);
});

test("expired and unknown: the API's body, exit 5 and 2; without --json, one line in words", async () => {
  const s = seeded();
  for (const code of ["OLD5", EXPIRED_UNIQUE]) {
    const run = redeem(s.dir, code);
    expect(run.code).toBe(EXIT_COUPON_EXPIRED);
    const answer = await api(s.dir, s.admin, { code });
    expect(answer.status).toBe(410);
    expect(JSON.parse(run.stdout)).toEqual(answer.body);
    expect(answer.body.expiredAt).toBe(s.expired);
  }
  const unknown = redeem(s.dir, "NOPE99");
  expect(unknown.code).toBe(EXIT_USAGE);
  expect(JSON.parse(unknown.stdout)).toEqual((await api(s.dir, s.admin, { code: "NOPE99" })).body);

  const words = nearcast(["coupons", "redeem", "SAVE10"], s.dir);
  expect(words.code).toBe(EXIT_OK);
  expect(words.stdout).toMatch(/^Valid: redeemed SAVE10 \(shared code of B Gym, broadcast #\d+\)\.\n$/);
  const live = nearcast(["coupons", "redeem", "SAVE20"], s.dir);
  expect(live.stdout).toMatch(/^Valid: redeemed SAVE20 \(shared code of A Bakery, broadcast #\d+\); valid until .+\.\n$/);
  const used = nearcast(["coupons", "redeem", UNIQUE], s.dir);
  expect(used.code).toBe(EXIT_OK);
  const usedAgain = nearcast(["coupons", "redeem", UNIQUE], s.dir);
  expect([usedAgain.code, usedAgain.stdout]).toEqual([EXIT_COUPON_USED, expect.stringMatching(/^Already used on .+\.\n$/)]);
  const expired = nearcast(["coupons", "redeem", "OLD5"], s.dir);
  expect([expired.code, expired.stdout]).toEqual([EXIT_COUPON_EXPIRED, expect.stringMatching(/^Expired on .+\.\n$/)]);
  const gone = nearcast(["coupons", "redeem", "NOPE99"], s.dir);
  expect([gone.code, gone.stderr]).toEqual([EXIT_USAGE, `nearcast: ${COUPON_UNKNOWN}\n`]);
});

test("broadcast send --coupon-code / --unique-coupons / --coupon-expires: stored as the API stores them; bad ones exit 2 with nothing written", () => {
  const shop = cliShop(dirs, 2);
  const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const send = (...args: string[]) => nearcast(["broadcast", "send", "--business", String(shop.businessId), "--yes", "--no-wait", ...args], shop.dir);
  const stored = () => withDataDir(shop.dir, (ctx) => ctx.repos.broadcasts.listByBusiness(shop.businessId).map((b) => [b.couponCode, b.uniqueCoupons, b.couponExpiresAt?.getTime() ?? null]));

  expect(send("--message", "Show {code} at the till", "--unique-coupons", "--coupon-expires", day).code).toBe(EXIT_OK);
  expect(send("--message", "Say save10 at the till", "--coupon-code", "save10").code).toBe(EXIT_OK);
  expect(stored()).toEqual([["SAVE10", false, null], [null, true, expiryOf(day, businessZone(null), Date.now())]]);

  const bad = [
    [["--message", "Hi", "--coupon-code", "ab"], COUPON_CODE_INVALID],
    [["--message", "Hi", "--unique-coupons"], UNIQUE_NEEDS_PLACEHOLDER],
    [["--message", "Hi {code}"], PLACEHOLDER_WITHOUT_UNIQUE],
    [["--message", "Hi", "--coupon-code", "SAVE10", "--coupon-expires", "2020-01-01"], COUPON_EXPIRES_PAST],
  ] as const;
  for (const [args, message] of bad) expect(send(...args)).toMatchObject({ code: EXIT_USAGE, stderr: `nearcast: ${message}\n` });
  expect(stored()).toHaveLength(2);
});
