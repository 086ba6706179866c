// Issue 21, item 2: the owner's own phone is verified by a 6-digit code texted to it (5 tries, 10 minutes) before
// test sends go there; test sends are at most 20 a day per owner. The code goes through the fake Twilio on loopback.
import { describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { phoneVerifications, users } from "../../src/db/schema.ts";
import { NOT_A_MOBILE } from "../../src/schemas/subscribe-number.ts";
import {
  CODE_EXPIRED,
  CODE_FORMAT,
  CODE_LOCKED,
  CODE_NONE,
  codeWrong,
  TEST_SENDS_PER_DAY,
  VERIFY_FIRST,
} from "../../src/schemas/phone-verification.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { TEST_SENDS_PER_MINUTE } from "../../src/services/broadcasts/test-send.ts";
import { apiClient } from "../helpers/api.ts";
import { closing, contextOnFake, fakeTwilioForFile } from "../helpers/worlds.ts";
import { sessionFor } from "../helpers/customer-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";
import { type ApiScenario, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";

const PHONE = "+14155550199";

const fake = fakeTwilioForFile();

function world() {
  const ctx = contextOnFake(fake, { NEARCAST_PUBLIC_URL: "https://deals.example.com", NEARCAST_ALLOWED_COUNTRIES: "US,CA" });
  const owner = insertUser(ctx, { phone: PHONE });
  const other = insertUser(ctx, { phone: "+14155550188" });
  const shop = insertBusiness(ctx, { ownerId: owner.id });
  return { ctx, api: apiClient(ctx), owner, other, shop, token: sessionFor(ctx, owner), otherToken: sessionFor(ctx, other) };
}
type World = ReturnType<typeof world>;

const sendCode = (w: World, token = w.token) => w.api.post("/api/auth/SendPhoneCode", {}, { token });
const verify = (w: World, code: unknown, token = w.token) => w.api.post("/api/auth/VerifyMyPhone", { code }, { token });
/** The code in the last text the fake Twilio received. */
const lastCode = () => /\b(\d{6})\b/.exec(String(fake.sends().at(-1)?.form.Body))?.[1] ?? "";
const wrongCode = (right: string) => String((Number(right) + 1) % 1_000_000).padStart(6, "0");
const verifiedAt = (w: World, id: number) => w.ctx.db.select().from(users).where(eq(users.id, id)).get()?.phoneVerifiedAt ?? null;

describe("verifying the owner's phone", () => {
  test("a code is texted to the phone, stored only hashed, and the right code verifies it", async () =>
    closing(world(), async (w) => {
      const sent = await sendCode(w);
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ to: PHONE, expiresInMinutes: 10 });
      expect(fake.sends()).toHaveLength(1);
      expect(fake.sends()[0]!.form.To).toBe(PHONE);
      const code = lastCode();
      expect(code).toMatch(/^\d{6}$/);
      const row = w.ctx.db.select().from(phoneVerifications).get()!;
      expect(row.codeHash).not.toContain(code);
      expect(row.expiresAt.getTime() - w.ctx.clock.now().getTime()).toBe(10 * 60_000);
      const ok = await verify(w, ` ${code.slice(0, 3)} ${code.slice(3)} `);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ id: w.owner.id, phone: PHONE, phoneVerified: true });
      expect(verifiedAt(w, w.owner.id)).not.toBeNull();
      expect(w.ctx.db.select({ n: count() }).from(phoneVerifications).get()?.n).toBe(0);
      // Verified: no new code; changing the number makes it unverified again.
      expect((await sendCode(w)).status).toBe(409);
      const changed = await w.api.put("/api/auth/UpdateMyPhone", { phone: "+14155550177" }, { token: w.token });
      expect(changed.body).toMatchObject({ phone: "+14155550177", phoneVerified: false });
    }));

  test("five wrong codes use it up; the right one is then refused too, and a new code works", async () =>
    closing(world(), async (w) => {
      await sendCode(w);
      const code = lastCode();
      for (let left = 4; left >= 1; left--) {
        const r = await verify(w, wrongCode(code));
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ code: "code_wrong", error: codeWrong(left) });
      }
      const fifth = await verify(w, wrongCode(code));
      expect(fifth.status).toBe(400);
      expect(fifth.body).toMatchObject({ code: "code_locked", error: CODE_LOCKED });
      const right = await verify(w, code);
      expect(right.body).toMatchObject({ code: "code_locked" });
      expect(verifiedAt(w, w.owner.id)).toBeNull();
      // A resend waits a minute (429 with Retry-After), then a new code verifies.
      const soon = await sendCode(w);
      expect(soon.status).toBe(429);
      expect(Number(soon.headers.get("retry-after"))).toBeGreaterThan(0);
      w.ctx.clock.advance(61_000);
      expect((await sendCode(w)).status).toBe(200);
      expect((await verify(w, lastCode())).status).toBe(200);
    }));

  test("a code expires after 10 minutes", async () =>
    closing(world(), async (w) => {
      await sendCode(w);
      w.ctx.clock.advance(10 * 60_000);
      const r = await verify(w, lastCode());
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "code_expired", error: CODE_EXPIRED });
      expect(verifiedAt(w, w.owner.id)).toBeNull();
    }));

  test("one account's code does nothing for another's", async () =>
    closing(world(), async (w) => {
      await sendCode(w);
      const r = await verify(w, lastCode(), w.otherToken);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "code_none", error: CODE_NONE });
      expect(verifiedAt(w, w.other.id)).toBeNull();
      expect(verifiedAt(w, w.owner.id)).toBeNull();
    }));

  test("UpdateMyPhone takes only numbers the rules allow (+1 900, satellite), and nothing changes", async () =>
    closing(world(), async (w) => {
      for (const phone of ["+19005550123", "+881631234567"]) {
        const r = await w.api.put("/api/auth/UpdateMyPhone", { phone }, { token: w.token });
        expect(r.status).toBe(400);
        expect(r.body.fields).toEqual({ phone: NOT_A_MOBILE });
      }
      expect(w.ctx.repos.users.findById(w.owner.id)?.phone).toBe(PHONE);
    }));
});

interface World2 extends ScenarioWorld {
  w: World;
}

describe("the phone routes", () => {
  const scenarios: ApiScenario<World2>[] = [
    { name: "anonymous: SendPhoneCode 401", method: "POST", path: "/api/auth/SendPhoneCode", json: {}, status: 401 },
    { name: "anonymous: VerifyMyPhone 401", method: "POST", path: "/api/auth/VerifyMyPhone", json: { code: "123456" }, status: 401 },
    { name: "a code of letters", as: "owner", method: "POST", path: "/api/auth/VerifyMyPhone", json: { code: "12ab56" }, status: 400, fields: { code: CODE_FORMAT } },
    { name: "a code too short", as: "owner", method: "POST", path: "/api/auth/VerifyMyPhone", json: { code: "12345" }, status: 400, fields: { code: CODE_FORMAT } },
    { name: "a code that is not text", as: "owner", method: "POST", path: "/api/auth/VerifyMyPhone", json: { code: 123456 }, status: 400, fields: { code: CODE_FORMAT } },
    { name: "a body that is not an object", as: "owner", method: "POST", path: "/api/auth/VerifyMyPhone", json: ["123456"], status: 400 },
    { name: "no code sent yet", as: "owner", method: "POST", path: "/api/auth/VerifyMyPhone", json: { code: "123456" }, status: 400, expectBody: { code: "code_none" } },
    { name: "no phone to send to", as: "nophone", method: "POST", path: "/api/auth/SendPhoneCode", json: {}, status: 400, expectBody: { fields: { phone: expect.any(String) } } as never },
  ];
  runScenarios(scenarios, {
    world: () => {
      const w = world();
      const nophone = insertUser(w.ctx, {});
      return { w, ctx: w.ctx, api: w.api, tokens: { owner: w.token, nophone: sessionFor(w.ctx, nophone) } };
    },
    unchanged: (x) => ({ users: x.ctx.db.select().from(users).all(), codes: x.ctx.db.select().from(phoneVerifications).all(), sent: fake.sends().length }),
    done: (x) => x.ctx.close(),
  });
});

describe("test sends go only to a verified phone, at most 20 a day", () => {
  const sendTest = (w: World, token = w.token) => {
    const form = new FormData();
    form.append("BusinessId", String(w.shop.id));
    form.append("MessageText", "Fresh bread at 7!");
    return w.api.call("POST", "/api/broadcast/SendTest", { body: form, token });
  };

  test("unverified: 400 saying to verify first, nothing sent", async () =>
    closing(world(), async (w) => {
      const r = await sendTest(w);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: VERIFY_FIRST, code: "validation_failed", fields: { phone: VERIFY_FIRST } });
      expect(fake.sends()).toHaveLength(0);
    }));

  test(`verified: tests reach the fake Twilio; the ${TEST_SENDS_PER_DAY + 1}st in 24 hours is a 429 saying when it can go`, async () => {
    const w = world();
    try {
      await sendCode(w);
      expect((await verify(w, lastCode())).status).toBe(200);
      fake.reset();
      for (let i = 1; i <= TEST_SENDS_PER_DAY; i++) {
        const r = await sendTest(w);
        expect(r.status).toBe(200);
        expect(r.body.result).toBe("sent");
        // Past the per-minute throttle: the next minute.
        if (i % TEST_SENDS_PER_MINUTE === 0) w.ctx.clock.advance(61_000);
      }
      expect(fake.sends()).toHaveLength(TEST_SENDS_PER_DAY);
      expect(fake.sends().every((s) => s.form.To === PHONE)).toBe(true);
      const over = await sendTest(w);
      expect(over.status).toBe(429);
      expect(over.body.error).toMatch(/^At most 20 test messages a day: the next one can go in \d+ hours?\.$/);
      const wait = Number(over.headers.get("retry-after"));
      expect(wait).toBeGreaterThan(23 * 3600);
      expect(fake.sends()).toHaveLength(TEST_SENDS_PER_DAY);
      // A day after the first one, a test goes again (in a new session: the test's one lasts a day).
      w.ctx.clock.advance(wait * 1000);
      expect((await sendTest(w, sessionFor(w.ctx, w.owner))).status).toBe(200);
    } finally {
      w.ctx.close();
    }
  }, 30_000);

  test("past the owner's hourly budget a test answers 429 with when it can go", async () =>
    closing(world(), async (w) => {
      w.ctx.repos.users.markPhoneVerified(w.owner.id, PHONE, w.ctx.clock.now());
      w.ctx.services.settings.update(OPERATOR, { ownerTextsPerHour: "2" });
      expect((await sendTest(w)).status).toBe(200);
      expect((await sendTest(w)).status).toBe(200);
      const over = await sendTest(w);
      expect(over.status).toBe(429);
      expect(over.body.error).toContain("hourly limit");
      expect(over.body.error).toMatch(/can go in (\d+ minutes|1 hour)\.$/);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(fake.sends()).toHaveLength(2);
    }));
});
