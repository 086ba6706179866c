// POST /api/customer/ImportCustomers (issue 12 item 3): the Customers screen's CSV import. Refusals are a 4xx in the
// one error shape before anything is written; then NDJSON lines: progress after each chunk of IMPORT_CHUNK rows, then the summary
// the CLI prints (added, re-added, already, skipped, invalid with line numbers).
// Not the scenario runner: the import answers a stream of NDJSON lines, read as they come.
import { afterEach, describe, expect, test } from "bun:test";
import { IMPORT_CHUNK } from "../../src/services/customers-operator.ts";
import { IMPORT_NO_ROWS, IMPORT_TOO_LARGE, IMPORT_WRONG_TYPE, type ImportLine } from "../../src/schemas/customer-import.ts";
import { BUSINESS_NOT_FOUND } from "../../src/schemas/texts.ts";
import { apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { customerTables, insertSubscriber, sessionFor } from "../helpers/customer-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";

let ctx: TestContext;
afterEach(() => ctx?.close());

function world() {
  ctx = testContext();
  const api = apiClient(ctx);
  const rosa = insertUser(ctx);
  const ben = insertUser(ctx);
  const admin = insertUser(ctx, { role: "admin" });
  const bakery = insertBusiness(ctx, { ownerId: rosa.id, name: "Rosa's Bakery" });
  const gym = insertBusiness(ctx, { ownerId: ben.id, name: "Ben's Gym" });
  insertSubscriber(ctx, bakery.id, { phone: "+14155550134" });
  insertSubscriber(ctx, bakery.id, { phone: "+14155550135", status: "unsubscribed" });
  const upload = (token: string | undefined, csv: string, query = "", type = "text/csv") =>
    api.call("POST", `/api/customer/ImportCustomers?businessId=${bakery.id}${query}`, { token, body: csv, headers: { "content-type": type } });
  return { api, bakery, gym, upload, rosa: sessionFor(ctx, rosa), ben: sessionFor(ctx, ben), admin: sessionFor(ctx, admin) };
}

/** A 6 MB file, its length declared as a browser declares it. */
function tooBig(w: ReturnType<typeof world>) {
  const csv = `phone,contactPreference\n${"4155550150,SMS\n".repeat(400_000)}`;
  return w.api.call("POST", `/api/customer/ImportCustomers?businessId=${w.bakery.id}`, {
    token: w.rosa,
    body: csv,
    headers: { "content-type": "text/csv", "content-length": String(csv.length) },
  });
}

const lines = (body: unknown) => String(body).trim().split("\n").map((l) => JSON.parse(l) as ImportLine);

const CSV = [
  "phone,contactPreference", // 1
  "(415) 555-0150,SMS", // 2: added
  "not a phone,SMS", // 3: invalid
  "415 555 0134,whatsapp", // 4: already subscribed
  "415 555 0135,SMS", // 5: unsubscribed: skipped
  "4155550150,WhatsApp", // 6: same number as line 2
  ",SMS", // 7: phone missing
].join("\n");

describe("ImportCustomers", () => {
  test("the summary, row by row with line numbers; the people stored with source 'import' and the file named in their consent", async () => {
    const w = world();
    const res = await w.upload(w.rosa, CSV, "&fileName=spring%20list.csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    const out = lines(res.body);
    expect(out[0]).toEqual({ progress: { done: 6, total: 6 } });
    expect(out[1]).toEqual({
      summary: {
        business: { id: w.bakery.id, name: "Rosa's Bakery" },
        added: [{ line: 2, phone: "+14155550150" }],
        readded: [],
        already: [{ line: 4, phone: "+14155550134" }],
        skipped: [
          { line: 5, phone: "+14155550135", reason: "unsubscribed from this business; only they can subscribe again" },
          { line: 6, phone: "+14155550150", reason: "same number as line 2" },
        ],
        invalid: [
          // The refused value as the file held it (issue 23: the import dialog shows it).
          { line: 3, message: "Please enter a valid phone number", value: "not a phone" },
          { line: 7, message: "Phone number is required", value: "" },
        ],
      },
    });
    const t = customerTables(ctx);
    const added = t.customers.find((c) => c.phone === "+14155550150")!;
    const sub = t.subscriptions.find((s) => s.customerId === added.id)!;
    expect(sub).toMatchObject({ businessId: w.bakery.id, source: "import", status: "active", contactPreference: "SMS" });
    expect(sub.consentText).toContain("spring list.csv");
    const event = t.consentEvents.find((e) => e.customerId === added.id)!;
    expect(event).toMatchObject({ source: "import", ip: "203.0.113.1" });
  });

  test("a big file: a progress line after every chunk, then the summary; a second upload finds them all there", async () => {
    const w = world();
    const rows = Array.from({ length: IMPORT_CHUNK * 2 + 10 }, (_, i) => `+1628${String(4_000_000 + i)},SMS`);
    const csv = `phone,contactPreference\n${rows.join("\n")}\n`;
    const out = lines((await w.upload(w.rosa, csv)).body);
    const total = IMPORT_CHUNK * 2 + 10;
    expect(out.slice(0, -1)).toEqual([
      { progress: { done: IMPORT_CHUNK, total } },
      { progress: { done: IMPORT_CHUNK * 2, total } },
      { progress: { done: total, total } },
    ]);
    const last = out.at(-1) as { summary: { added: unknown[] } };
    expect(last.summary.added).toHaveLength(total);
    const again = lines((await w.upload(w.admin, csv)).body).at(-1) as { summary: { added: unknown[]; already: unknown[] } };
    expect([again.summary.added.length, again.summary.already.length]).toEqual([0, total]);
  });

  test("welcome=1 queues one welcome text per person added", async () => {
    const w = world();
    const out = lines((await w.upload(w.rosa, CSV, "&welcome=1")).body).at(-1) as { summary: { welcomed: number } };
    expect(out.summary.welcomed).toBe(1);
  });

  test("refusals before anything is written: another owner's business 404, not signed in 401, not CSV 415, no header or no rows 400, too big 413", async () => {
    const w = world();
    const before = customerTables(ctx);
    const cases: [Promise<{ status: number; body: any }>, number, string][] = [
      [w.upload(w.ben, CSV), 404, BUSINESS_NOT_FOUND],
      [w.api.call("POST", `/api/customer/ImportCustomers?businessId=${w.gym.id}`, { token: w.rosa, body: CSV, headers: { "content-type": "text/csv" } }), 404, BUSINESS_NOT_FOUND],
      [w.upload(undefined, CSV), 401, "Please log in to continue."],
      [w.upload(w.rosa, CSV, "", "application/json"), 415, IMPORT_WRONG_TYPE],
      [w.upload(w.rosa, "name,email\nRosa,r@example.com\n"), 400, 'upload.csv: the first line must be the header "phone,contactPreference"'],
      [w.upload(w.rosa, "phone,contactPreference\n\n"), 400, IMPORT_NO_ROWS],
      [tooBig(w), 413, IMPORT_TOO_LARGE],
    ];
    for (const [call, status, error] of cases) {
      const res = await call;
      expect({ status: res.status, error: res.body.error }).toEqual({ status, error });
      expect(Object.keys(res.body).filter((k) => k !== "fields").sort()).toEqual(["code", "error"]);
    }
    expect((await w.api.call("POST", "/api/customer/ImportCustomers?businessId=abc", { token: w.rosa, body: CSV, headers: { "content-type": "text/csv" } })).status).toBe(400);
    expect(customerTables(ctx)).toEqual(before);
  });

  test("a failure half-way: the chunks before it stay, the last line says what went wrong (no stack), a re-upload completes it", async () => {
    const w = world();
    const rows = Array.from({ length: 600 }, (_, i) => `+1628${String(6_000_000 + i)},SMS`);
    // A row of the second chunk fails: the first chunk stays.
    ctx.db.$client.exec(`CREATE TEMP TRIGGER boom BEFORE INSERT ON customers WHEN NEW.phone = '${rows[IMPORT_CHUNK + 10]!.split(",")[0]}' BEGIN SELECT RAISE(ABORT, 'simulated failure'); END`);
    const out = lines((await w.upload(w.rosa, `phone,contactPreference\n${rows.join("\n")}`)).body);
    expect(out).toEqual([{ progress: { done: IMPORT_CHUNK, total: 600 } }, { error: "Something went wrong on our side. Please try again.", code: "internal" }]);
    expect(ctx.logger.lines.join("\n")).toContain("ImportCustomers failed: SQLiteError: simulated failure");
    ctx.db.$client.exec("DROP TRIGGER boom");
    const again = lines((await w.upload(w.rosa, `phone,contactPreference\n${rows.join("\n")}`)).body).at(-1) as { summary: { added: unknown[]; already: unknown[] } };
    expect([again.summary.added.length, again.summary.already.length]).toEqual([600 - IMPORT_CHUNK, IMPORT_CHUNK]);
  });
});
