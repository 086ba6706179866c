// Issue 23, item 4: Twilio is never handed a private URL. With the public URL missing or private (and Twilio the real
// one: TWILIO_API_BASE is overridden to https://api.twilio.com in the context's config, so the fake-Twilio exception
// does not apply; nothing is sent, so no request leaves this machine), a test or a broadcast with an image is a 400
// naming publicUrl and the fix. With TWILIO_API_BASE on loopback (the fake Twilio), a private public URL is fine.
import { describe, expect, test } from "bun:test";
import { count } from "drizzle-orm";
import { broadcasts, textBudget, uploads } from "../../src/db/schema.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { imageLinkProblem } from "../../src/schemas/twilio-links.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext, type TestContext } from "../helpers/context.ts";
import { insertSubscriber, sessionFor } from "../helpers/customer-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";
import { PNG } from "../helpers/images.ts";
import { request, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { fakeTwilioForFile, member } from "../helpers/worlds.ts";

const fake = fakeTwilioForFile({ resetEach: true });
const REAL_TWILIO = "https://api.twilio.com";
const PRIVATE_URL = "http://192.168.1.20:3000";
const OWNER_PHONE = "+14155550199";
const NOT_SET = imageLinkProblem(null, REAL_TWILIO)!;
const PRIVATE = imageLinkProblem(PRIVATE_URL, REAL_TWILIO)!;

interface World extends ScenarioWorld {
  imagePath: string;
  businessId: number;
}

/** An owner (verified phone) with a business and one subscriber, an uploaded image, Twilio configured; `publicUrl`
 * saved unless null; `apiBase` "real" overrides TWILIO_API_BASE with Twilio's own (nothing may be sent then). */
async function world(publicUrl: string | null, apiBase: "real" | "fake"): Promise<World> {
  const ctx = testContext({ ...fake.settings(), NEARCAST_QUIET_HOURS: "off" }, apiBase === "real" ? { twilioApiBase: REAL_TWILIO } : {});
  if (publicUrl) ctx.services.settings.update(OPERATOR, { publicUrl });
  const owner = insertUser(ctx, { role: "owner", phone: OWNER_PHONE, phoneVerifiedAt: ctx.clock.now() });
  const business = insertBusiness(ctx, { ownerId: owner.id });
  insertSubscriber(ctx, business.id);
  const { filePath } = await ctx.services.uploads.saveBytes(owner.id, "broadcast", PNG);
  const other = member(ctx, { role: "owner" });
  const admin = member(ctx, { role: "admin" });
  return { ctx, api: apiClient(ctx), tokens: { owner: sessionFor(ctx, owner), other: other.token, admin: admin.token }, imagePath: filePath, businessId: business.id };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const URLENCODED = { "content-type": "application/x-www-form-urlencoded" };
const testWithImage = (w: World) => form({ BusinessId: String(w.businessId), MessageText: "Photo of the day", ImagePath: w.imagePath });
const sendTest = request<World>("owner", "POST", "/api/broadcast/SendTest");
const stored = (ctx: TestContext) => ({
  textSlots: ctx.db.select({ n: count() }).from(textBudget).get()!.n,
  broadcasts: ctx.db.select({ n: count() }).from(broadcasts).get()!.n,
});

describe("SendTest with an image", () => {
  const worlds = { PRIVATE_REAL: () => world(PRIVATE_URL, "real"), NONE_REAL: () => world(null, "real"), PRIVATE_FAKE: () => world(PRIVATE_URL, "fake") };
  runScenarios<World>(
    [
      sendTest("private public URL, real Twilio: 400 naming publicUrl and ImagePath with the fix; nothing sent", 400, {
        env: { WORLD: "PRIVATE_REAL" }, headers: URLENCODED, raw: testWithImage,
        expectBody: { error: PRIVATE, code: "public_url_private" },
        fields: { ImagePath: PRIVATE, publicUrl: PRIVATE },
        after: () => expect(fake.requests).toEqual([]),
      }),
      sendTest("no public URL, real Twilio: 400 naming publicUrl; nothing sent", 400, {
        env: { WORLD: "NONE_REAL" }, headers: URLENCODED, raw: testWithImage,
        expectBody: { error: NOT_SET, code: "public_url_not_set" },
        fields: { ImagePath: NOT_SET, publicUrl: NOT_SET },
        after: () => expect(fake.requests).toEqual([]),
      }),
      sendTest("private public URL with TWILIO_API_BASE on loopback (the fake): sent, image and callback on that URL", 200, {
        env: { WORLD: "PRIVATE_FAKE" }, headers: URLENCODED, raw: testWithImage,
        expectBody: { result: "sent" },
        after: (w) => {
          const [sent] = fake.sends();
          expect(sent!.form.MediaUrl).toBe(`${PRIVATE_URL}${w.imagePath}`);
          expect(sent!.form.StatusCallback).toMatch(new RegExp(`^${PRIVATE_URL}/api/webhooks/twilio/status\\?test=\\d+$`));
          expect(stored(w.ctx).textSlots).toBe(1);
        },
      }),
    ],
    {
      world: (s) => worlds[s.env!.WORLD as keyof typeof worlds](),
      unchanged: (w) => stored(w.ctx),
      done: (w) => w.ctx.close(),
    },
  );
});

describe("PublishMessageToAllCustomers with an image", () => {
  const publish = (w: World, token: string, fields: Record<string, string | Blob>) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    return w.api.call("POST", "/api/business/PublishMessageToAllCustomers", { body, token });
  };
  const image = () => new File([PNG as BlobPart], "loaf.png", { type: "image/png" });
  const rows = (ctx: TestContext) => ({ ...stored(ctx), uploads: ctx.db.select({ n: count() }).from(uploads).get()!.n });

  test("private public URL, real Twilio: 400 naming Image and publicUrl, for the owner and the admin alike; nothing stored", async () => {
    const w = await world(PRIVATE_URL, "real");
    try {
      const before = rows(w.ctx);
      for (const who of ["owner", "admin"]) {
        const res = await publish(w, w.tokens![who]!, { BusinessId: String(w.businessId), MessageText: "Look!", Image: image() });
        expect([who, res.status]).toEqual([who, 400]);
        expect(res.body).toEqual({ error: PRIVATE, code: "public_url_private", fields: { Image: PRIVATE, publicUrl: PRIVATE } });
      }
      // Another owner's business stays theirs: 403 before anything about the image.
      expect((await publish(w, w.tokens!.other!, { BusinessId: String(w.businessId), MessageText: "Look!", Image: image() })).status).toBe(403);
      expect(rows(w.ctx)).toEqual(before);
      // Without the image it goes; with a public address, the image goes too.
      expect((await publish(w, w.tokens!.owner!, { BusinessId: String(w.businessId), MessageText: "Look!" })).status).toBe(200);
      w.ctx.services.settings.update(OPERATOR, { publicUrl: "https://deals.example.com" });
      expect((await publish(w, w.tokens!.owner!, { BusinessId: String(w.businessId), MessageText: "Look again!", Image: image() })).status).toBe(200);
      expect(fake.requests).toEqual([]);
    } finally {
      w.ctx.close();
    }
  });

  test("private public URL with TWILIO_API_BASE on loopback (the fake Twilio): accepted as before", async () => {
    const w = await world(PRIVATE_URL, "fake");
    try {
      const res = await publish(w, w.tokens!.owner!, { BusinessId: String(w.businessId), MessageText: "Look!", Image: image() });
      expect(res.status).toBe(200);
      expect(res.body.broadcastId).toBeGreaterThan(0);
    } finally {
      w.ctx.close();
    }
  });
});
