// "or text BAGEL to +1 555 …" (issue 24, item 5): wherever a business's keyword is set and an SMS sender is, the
// poster (PDF), the subscribe page, the program page, GET /api/site (for the print page) and the registration kit
// say how to join by text; without either, none of them does. One source of the words: textToJoinLine.
import { describe, expect, test } from "bun:test";
import { programFacts } from "../../src/schemas/program-facts.ts";
import { textToJoinLine } from "../../src/schemas/poster-text.ts";
import { apiClient, PUBLIC_URL } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { sessionFor } from "../helpers/customer-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN } from "../helpers/fake-twilio.ts";
import { pdfText } from "../helpers/pdf-text.ts";
import { closing } from "../helpers/worlds.ts";

const LINE = "or text BAGEL to +1 555 000 1111";
const TWILIO = { TWILIO_ACCOUNT_SID: FAKE_ACCOUNT_SID, TWILIO_AUTH_TOKEN: FAKE_AUTH_TOKEN, TWILIO_FROM: "+15550001111", TWILIO_API_BASE: "http://127.0.0.1:9" };

function world(env: Record<string, string> = TWILIO, keyword: string | null = "BAGEL") {
  const ctx = testContext({ ...env, NEARCAST_PUBLIC_URL: PUBLIC_URL });
  const owner = insertUser(ctx, { role: "owner" });
  const shop = insertBusiness(ctx, { ownerId: owner.id, name: "Rosa's Bakery", keyword });
  const api = apiClient(ctx);
  const token = sessionFor(ctx, owner);
  const page = async (path: string) => (await api.call("GET", path, { noXsrf: true })).body as string;
  const poster = async () => {
    const res = await api.app.request(`/api/business/GetPosterPdf?id=${shop.id}`, { headers: { authorization: `Bearer ${token}` } }, { requestIP: () => ({ address: "203.0.113.9" }) });
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { text: pdfText(bytes), pages: (Buffer.from(bytes).toString("latin1").match(/\/Type \/Page\b(?!s)/g) ?? []).length };
  };
  const kit = async () => (await api.get(`/api/business/GetRegistrationKit?id=${shop.id}`, { token })).body;
  return { ctx, api, shop, page, poster, kit };
}

describe("the join line", () => {
  test("textToJoinLine: the keyword and the sender, formatted; null without either", () => {
    expect(textToJoinLine("BAGEL", "+15550001111")).toBe(LINE);
    expect(textToJoinLine(null, "+15550001111")).toBeNull();
    expect(textToJoinLine("BAGEL", null)).toBeNull();
  });

  test("keyword and sender set: the poster PDF (still one page), the subscribe page, the program page, the site and the kit say it", async () =>
    closing(world(), async (w) => {
      const poster = await w.poster();
      expect(poster.text).toContain(LINE);
      expect(poster.pages).toBe(1);
      expect(await w.page(`/subscribe?id=${w.shop.id}`)).toContain(`data-testid="join-keyword">${LINE}</p>`);
      expect(await w.page(`/program?id=${w.shop.id}`)).toContain("Or text BAGEL to +1 555 000 1111: a text of just that word");
      expect((await w.api.get("/api/site")).body).toMatchObject({ smsNumber: "+15550001111" });
      const kit = await w.kit();
      expect(kit.keywords.at(-1)).toEqual({ keyword: "BAGEL", reply: programFacts(w.shop).confirmation });
      expect(kit.keywords.map((k: { keyword: string }) => k.keyword)).toEqual(["STOP", "START", "HELP", "BAGEL"]);
      expect(kit.optInDescription).toContain("Or they text the keyword BAGEL to +1 555 000 1111");
    }));

  test("no keyword: none of them says it", async () =>
    closing(world(TWILIO, null), async (w) => {
      expect((await w.poster()).text).not.toContain("or text");
      expect(await w.page(`/subscribe?id=${w.shop.id}`)).not.toContain("join-keyword");
      expect(await w.page(`/program?id=${w.shop.id}`)).not.toContain("program-keyword");
      const kit = await w.kit();
      expect(kit.keywords.map((k: { keyword: string }) => k.keyword)).toEqual(["STOP", "START", "HELP"]);
      expect(kit.optInDescription).not.toContain("text the keyword");
    }));

  test("no SMS sender (the sandbox): no number to text, so no line", async () =>
    closing(world({}), async (w) => {
      expect((await w.poster()).text).not.toContain("or text");
      expect(await w.page(`/subscribe?id=${w.shop.id}`)).not.toContain("join-keyword");
      expect((await w.api.get("/api/site")).body).toMatchObject({ smsNumber: null });
    }));
});
