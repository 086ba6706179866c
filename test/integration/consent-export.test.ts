// The consent export (issue 11 item 7): GET /api/business/ExportConsent?id= as CSV for the business's owner or an
// admin, and `nearcast customers consent --business ID --csv`, the same bytes from the one writer (src/lib/csv.ts).
import { afterEach, describe, expect, test } from "bun:test";
import { consentEvents } from "../../src/db/schema.ts";
import { toCsv } from "../../src/lib/csv.ts";
import { CONSENT_CSV_HEADER, CONSENT_PAGE } from "../../src/services/businesses.ts";
import { apiClient } from "../helpers/api.ts";
import { nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertSubscriber, sessionFor } from "../helpers/customer-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";
import { type ApiScenario, runScenarios } from "../helpers/scenario.ts";

const EXPORT = "/api/business/ExportConsent";
const HEADER = "phone,event,source,time,ip,user agent,text";

type Ctx = Parameters<typeof insertBusiness>[0];

/** Rosa's bakery with two subscribers (one with a tricky consent text and user agent, then a STOP to every
 * business), and Ivan's gym with one of its own that must never show in Rosa's export. */
function seed(ctx: Ctx) {
  const rosa = insertUser(ctx);
  const ivan = insertUser(ctx);
  const bakery = insertBusiness(ctx, { ownerId: rosa.id, name: "Rosa's Bakery" });
  const gym = insertBusiness(ctx, { ownerId: ivan.id, name: "Iron Gym" });
  const sam = insertSubscriber(ctx, bakery.id, { phone: "+14155550101" }).customer;
  insertSubscriber(ctx, bakery.id, { phone: "+14155550102" });
  insertSubscriber(ctx, gym.id, { phone: "+14155550199" });
  ctx.db
    .insert(consentEvents)
    .values([
      {
        customerId: sam.id,
        businessId: bakery.id,
        kind: "resubscribed",
        source: "qr",
        consentText: 'Get "deals", twice a week\nReply STOP to cancel',
        ip: "203.0.113.9",
        userAgent: "=cmd|' /C calc'!A0",
        at: new Date("2026-01-11T08:30:00Z"),
      },
      { customerId: sam.id, businessId: null, kind: "unsubscribed", source: "sms-stop", at: new Date("2026-01-12T08:30:00Z") },
    ])
    .run();
  return { rosa, ivan, bakery, gym };
}

const EXPECTED_ROWS = [
  HEADER,
  "'+14155550101,subscribed,qr,2026-01-10T09:00:00.000Z,,,factory consent",
  "'+14155550102,subscribed,qr,2026-01-10T09:00:00.000Z,,,factory consent",
  `'+14155550101,resubscribed,qr,2026-01-11T08:30:00.000Z,203.0.113.9,'=cmd|' /C calc'!A0,"Get ""deals"", twice a week\nReply STOP to cancel"`,
  "'+14155550101,unsubscribed,sms-stop,2026-01-12T08:30:00.000Z,,,",
];
const EXPECTED = `${EXPECTED_ROWS.join("\r\n")}\r\n`;

describe("GET /api/business/ExportConsent", () => {
  let ctx: TestContext;
  afterEach(() => ctx?.close());

  function world() {
    ctx = testContext({});
    const w = seed(ctx);
    const admin = insertUser(ctx, { role: "admin" });
    return { ...w, ctx, api: apiClient(ctx), tokens: { rosa: sessionFor(ctx, w.rosa), ivan: sessionFor(ctx, w.ivan), admin: sessionFor(ctx, admin) } };
  }

  type World = ReturnType<typeof world>;
  const own = (w: World) => `${EXPORT}?id=${w.bakery.id}`;
  runScenarios<World>(
    [
      {
        name: "the owner gets every consent event of the business as a CSV attachment, quoted and formula-guarded",
        as: "rosa",
        method: "GET",
        path: own,
        status: 200,
        expectBody: EXPECTED,
        expect: (_, w, res) => {
          expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
          expect(res.headers.get("content-disposition")).toBe(`attachment; filename="consent-business-${w.bakery.id}.csv"`);
        },
      },
      { name: "an admin gets any business's export", as: "admin", method: "GET", path: own, status: 200, expectBody: EXPECTED },
      {
        name: "another owner: 404 in the error shape, nothing of the business leaks",
        as: "ivan",
        method: "GET",
        path: own,
        status: 404,
        expectBody: { code: "not_found" },
        expect: (body) => expect(JSON.stringify(body)).not.toContain("4155550101"),
      },
      {
        name: "another owner's own export has only their people",
        as: "ivan",
        method: "GET",
        path: (w) => `${EXPORT}?id=${w.gym.id}`,
        status: 200,
        expectBody: `${HEADER}\r\n'+14155550199,subscribed,qr,2026-01-10T09:00:00.000Z,,,factory consent\r\n`,
      },
      { name: "anonymous: 401", method: "GET", path: own, status: 401 },
      ...["abc", "0", "-1"].map((id): ApiScenario<World> => ({ name: `id=${id}: 400 naming id`, as: "rosa", method: "GET", path: `${EXPORT}?id=${id}`, status: 400, expectBody: { code: "validation_failed" }, fields: { id: "invalid" } })),
      { name: "no id: 400, id required", as: "rosa", method: "GET", path: EXPORT, status: 400, fields: { id: "required" } },
      { name: "an unknown id: 404", as: "rosa", method: "GET", path: `${EXPORT}?id=99999`, status: 404 },
    ],
    { world },
  );
});

describe("a big export comes a page at a time", () => {
  test(`${CONSENT_PAGE * 2 + 500} events: every one once, in order, with a STOP to every business in its place; the same bytes as one read`, async () => {
    const ctx = testContext({});
    try {
      const owner = insertUser(ctx);
      const bakery = insertBusiness(ctx, { ownerId: owner.id, name: "Big Bakery" });
      const sqlite = ctx.db.$client;
      const at = Date.parse("2026-01-10T09:00:00Z");
      const people: number[] = [];
      sqlite.transaction(() => {
        for (let i = 0; i < CONSENT_PAGE * 2 + 500; i++) {
          const { id } = sqlite.query("INSERT INTO customers (phone, created_at) VALUES (?, ?) RETURNING id").get(`+1628${5_000_000 + i}`, at) as { id: number };
          people.push(id);
          sqlite.run("INSERT INTO subscriptions (customer_id, business_id, status, source, consent_at, consent_text, created_at) VALUES (?, ?, 'active', 'import', ?, 'c', ?)", [id, bakery.id, at, at]);
          sqlite.run("INSERT INTO consent_events (customer_id, business_id, kind, source, consent_text, at) VALUES (?, ?, 'subscribed', 'import', 'c', ?)", [id, bakery.id, at + i]);
          // Person 1,200 texts STOP right after subscribing: an all-business event between two pages' worth of rows.
          if (i === 1200) sqlite.run("INSERT INTO consent_events (customer_id, business_id, kind, source, at) VALUES (?, NULL, 'unsubscribed', 'sms-stop', ?)", [id, at + i]);
        }
      })();
      const api = apiClient(ctx);
      const res = await api.get(`${EXPORT}?id=${bakery.id}`, { token: sessionFor(ctx, owner) });
      expect(res.status).toBe(200);
      const lines = String(res.body).split("\r\n").slice(0, -1);
      expect(lines.length).toBe(1 + CONSENT_PAGE * 2 + 500 + 1);
      expect(lines[1202]).toBe(`'+16285001200,unsubscribed,sms-stop,${new Date(at + 1200).toISOString()},,,`);
      expect(lines[1201]).toStartWith("'+16285001200,subscribed,import,");
      expect(lines[1203]).toStartWith("'+16285001201,subscribed,import,");
      // The same file read in one go straight from the tables: the business's own events and its subscribers'
      // all-business ones, by id.
      const oneRead = sqlite
        .query(
          `SELECT c.phone, e.kind, e.source, e.at, e.ip, e.user_agent AS userAgent, e.consent_text AS consentText
           FROM consent_events e JOIN customers c ON c.id = e.customer_id
           WHERE e.business_id = ?1 OR (e.business_id IS NULL AND EXISTS (SELECT 1 FROM subscriptions s WHERE s.customer_id = e.customer_id AND s.business_id = ?1))
           ORDER BY e.id`,
        )
        .all(bakery.id) as { phone: string; kind: string; source: string; at: number; ip: string | null; userAgent: string | null; consentText: string | null }[];
      expect(res.body).toBe(toCsv(CONSENT_CSV_HEADER, oneRead.map((e) => [e.phone, e.kind, e.source, new Date(e.at).toISOString(), e.ip, e.userAgent, e.consentText])));
    } finally {
      ctx.close();
    }
  });
});

describe("nearcast customers consent", () => {
  const dirs = tempDataDirs("nearcast-cli-consent");
  afterEach(dirs.removeAll);
  const run = (args: string[], dir: string) => nearcast(args, dir, { PATH: process.env.PATH ?? "", NEARCAST_DEFAULT_COUNTRY: "US" });

  test("--csv prints the same CSV as the API; without it a table; an unknown business exits 2", () => {
    const dir = dirs.make();
    const { bakery } = withDataDir(dir, (c) => seed(c));
    const csv = run(["customers", "consent", "--business", String(bakery.id), "--csv"], dir);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toBe(EXPECTED);
    const table = run(["customers", "consent", "--business", String(bakery.id)], dir);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("sms-stop");
    expect(table.stdout.split("\n")[0]).toMatch(/^PHONE\s+EVENT\s+SOURCE\s+TIME\s+IP/);
    expect(run(["customers", "consent", "--business", "999", "--csv"], dir)).toMatchObject({ code: 2, stdout: "" });
  });

  test("--help shows examples", () => {
    const res = run(["customers", "consent", "--help"], dirs.make());
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("nearcast customers consent --business 3 --csv");
  });
});
