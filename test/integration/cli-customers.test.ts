import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { nearcast, tempDataDirs, withDataDir as withDb } from "../helpers/cli.ts";
import { customerTables, insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { IMPORT_CHUNK } from "../../src/services/customers-operator.ts";

const dirs = tempDataDirs("nearcast-cli-customers");
const tempDir = dirs.make;
afterEach(dirs.removeAll);

/** A bare environment (only PATH): nothing of the caller's NEARCAST_* or TWILIO_* settings leaks into the command. */
const run = (args: string[], dataDir?: string) =>
  nearcast(args, dataDir, { PATH: process.env.PATH ?? "", NEARCAST_DEFAULT_COUNTRY: "US" });

function seeded() {
  const dir = tempDir();
  const ids = withDb(dir, (ctx) => {
    const bakery = insertBusiness(ctx, { name: "Sunrise Bakery" });
    const gym = insertBusiness(ctx, { name: "Corner Gym" });
    insertSubscriber(ctx, bakery.id, { phone: "+14155550134", contactPreference: "WhatsApp" });
    insertSubscriber(ctx, gym.id, { phone: "+14155550134" });
    insertSubscriber(ctx, bakery.id, { phone: "+14155550135", status: "unsubscribed" });
    insertSubscriber(ctx, bakery.id, { phone: "+14155550136", status: "removed" });
    return { bakery: bakery.id, gym: gym.id };
  });
  return { dir, ...ids };
}

describe("nearcast customers --help", () => {
  for (const sub of [[], ["list"], ["import"], ["forget"]]) {
    test(`customers ${sub.join(" ")} --help shows examples`, () => {
      const res = run(["customers", ...sub, "--help"]);
      expect(res.code).toBe(0);
      expect(res.stdout).toContain("Examples:");
      expect(res.stdout).toContain("nearcast customers");
    });
  }
  test("the program's help lists the customers command", () => {
    expect(run(["--help"]).stdout).toContain("customers");
  });
});

describe("nearcast customers list", () => {
  test("--json lists the business's subscribers (active and unsubscribed, not removed)", () => {
    const { dir, bakery } = seeded();
    const res = run(["customers", "list", "--business", String(bakery), "--json"], dir);
    expect(res.code).toBe(0);
    const rows = JSON.parse(res.stdout);
    expect(rows.map((r: any) => [r.phone, r.contactPreference, r.status, r.source])).toEqual([
      ["+14155550134", "WhatsApp", "active", "qr"],
      ["+14155550135", "SMS", "unsubscribed", "qr"],
    ]);
    expect(rows[0].subscribedAt).toBe("2026-01-10T09:00:00.000Z");
  });

  test("the table form has a header row", () => {
    const { dir, gym } = seeded();
    const res = run(["customers", "list", "--business", String(gym)], dir);
    expect(res.code).toBe(0);
    expect(res.stdout.split("\n")[0]).toMatch(/^ID\s+PHONE\s+PREFERENCE\s+STATUS\s+SOURCE\s+SUBSCRIBED$/);
    expect(res.stdout).toContain("+14155550134");
  });

  test("an unknown business or a bad id exits 2 with one line", () => {
    const { dir } = seeded();
    const unknown = run(["customers", "list", "--business", "999"], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("nearcast: No business has the id 999.\n");
    const bad = run(["customers", "list", "--business", "abc"], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--business must be a positive whole number");
    expect(run(["customers", "list"], dir).code).toBe(2);
  });
});

describe("nearcast customers import", () => {
  const CSV = [
    "phone,contactPreference", // line 1
    "(415) 555-0150,SMS", // 2: added
    "not a phone,SMS", // 3: invalid
    '"+1 415 555 0151",whatsapp', // 4: added (preference case is forgiven)
    "415.555.0152,Carrier pigeon", // 5: invalid preference
    "", // 6: blank, skipped silently
    "+1 555 555 5555,SMS", // 7: right shape, not a real number
    "4155550150,WhatsApp", // 8: same number as line 2
    "415 555 0134,SMS", // 9: already subscribed
    "415 555 0135,SMS", // 10: unsubscribed: not re-added
    "415 555 0136,SMS", // 11: removed by the owner: re-added
    ",SMS", // 12: phone missing
  ].join("\n");

  test("reports bad rows by line number and imports the valid ones with source 'import'", () => {
    const { dir, bakery } = seeded();
    const file = join(dir, "contacts.csv");
    writeFileSync(file, CSV);
    const res = run(["customers", "import", "--business", String(bakery), file], dir);
    expect(res.code).toBe(3); // partly done: the invalid rows were not imported
    const said = ["Imported contacts.csv into Sunrise Bakery", "2 added, 1 re-added, 1 already subscribed, 2 skipped, 4 invalid rows"];
    const invalid = ["line 3: Please enter a valid phone number", "line 5: Please select a contact preference", "line 7: Please enter a valid phone number"];
    const skipped = ["line 12: Phone number is required", "line 8: +14155550150 same number as line 2", "line 10: +14155550135 unsubscribed from this business"];
    for (const line of [...said, ...invalid, ...skipped]) expect(res.stdout).toContain(line);
    const t = withDb(dir, customerTables);
    const phones = new Map(t.customers.map((c) => [c.id, c]));
    const imported = t.subscriptions.filter((s) => s.source === "import");
    expect(imported.map((s) => [phones.get(s.customerId)?.phone, s.status]).sort()).toEqual([
      ["+14155550136", "active"],
      ["+14155550150", "active"],
      ["+14155550151", "active"],
    ]);
    expect(imported.find((s) => phones.get(s.customerId)?.phone === "+14155550151")!.contactPreference).toBe("WhatsApp");
    expect(imported[0]!.consentText).toContain("contacts.csv");
    expect(t.subscriptions.find((s) => phones.get(s.customerId)?.phone === "+14155550135")?.status).toBe("unsubscribed");
  });

  test("a person who replied STOP (to any business) is skipped with the line and the reason, nothing of them written; after START they import", () => {
    const { dir, bakery } = seeded();
    withDb(dir, (ctx) => {
      // +14155550190 subscribed only to a business of someone else, then replied STOP; +14155550191 never was a
      // customer of anyone here, but Twilio answered 21610 for them.
      const other = insertBusiness(ctx, { name: "Elsewhere" });
      const stopped = insertSubscriber(ctx, other.id, { phone: "+14155550190", contactPreference: "WhatsApp" }).customer;
      ctx.services.optOuts.optOutCustomer(stopped.id, { source: "sms-stop", at: new Date("2026-02-01T00:00:00Z") });
      const lonely = ctx.repos.customers.insert({ phone: "+14155550191", createdAt: new Date("2026-02-01T00:00:00Z") });
      ctx.services.optOuts.optOutCustomer(lonely.id, { source: "twilio-21610", at: new Date("2026-02-01T00:00:00Z") });
    });
    const before = withDb(dir, customerTables);
    const file = join(dir, "c.csv");
    writeFileSync(file, "phone,contactPreference\n4155550192,SMS\n415 555 0190,SMS\n4155550193,WhatsApp\n+14155550191,WhatsApp\n");
    const res = run(["customers", "import", "--business", String(bakery), file], dir);
    expect(res.code).toBe(0); // skipped people are not invalid rows
    expect(res.stdout).toContain("2 added, 0 re-added, 0 already subscribed, 2 skipped, 0 invalid rows");
    const reason = "replied STOP to our messages; only they can subscribe again (by scanning the QR code or texting START)";
    expect(res.stdout).toContain(`line 3: +14155550190 ${reason}`);
    expect(res.stdout).toContain(`line 5: +14155550191 ${reason}`);
    const after = withDb(dir, customerTables);
    const phoneOf = new Map(after.customers.map((c) => [c.id, c.phone]));
    // The two skipped people: their rows (preference included), subscriptions and consent history are as they were.
    const theirs = (t: typeof before) => {
      const ids = new Set(t.customers.filter((c) => c.phone === "+14155550190" || c.phone === "+14155550191").map((c) => c.id));
      return {
        customers: t.customers.filter((c) => ids.has(c.id)),
        subscriptions: t.subscriptions.filter((x) => ids.has(x.customerId)),
        consentEvents: t.consentEvents.filter((e) => ids.has(e.customerId)),
      };
    };
    expect(theirs(after)).toEqual(theirs(before));
    expect(after.subscriptions.filter((x) => x.source === "import").map((x) => phoneOf.get(x.customerId))).toEqual(["+14155550192", "+14155550193"]);

    const json = JSON.parse(run(["customers", "import", "--business", String(bakery), file, "--json"], dir).stdout);
    expect(json.skipped).toEqual([
      { line: 3, phone: "+14155550190", reason },
      { line: 5, phone: "+14155550191", reason },
    ]);

    // START lifts it: the same file now adds them.
    withDb(dir, (ctx) => ctx.services.optOuts.optInCustomer(ctx.repos.customers.findByPhone("+14155550190")!.id, { source: "sms-start", at: new Date("2026-02-02T00:00:00Z") }));
    const again = JSON.parse(run(["customers", "import", "--business", String(bakery), file, "--json"], dir).stdout);
    expect(again.added).toEqual([{ line: 3, phone: "+14155550190" }]);
    expect(again.skipped).toEqual([{ line: 5, phone: "+14155550191", reason }]);
  });

  test("--json prints the summary", () => {
    const { dir, gym } = seeded();
    const file = join(dir, "c.csv");
    writeFileSync(file, "contactPreference,phone\r\nSMS,4155550160\r\nSMS,x\r\n");
    const res = run(["customers", "import", "--business", String(gym), file, "--json"], dir);
    expect(res.code).toBe(3); // one invalid row
    const s = JSON.parse(res.stdout);
    expect(s.added).toEqual([{ line: 2, phone: "+14155550160" }]);
    expect(s.invalid).toEqual([{ line: 3, message: "Please enter a valid phone number", value: "x" }]);
  });

  test("a file without the header, or missing, exits 2 and writes nothing", () => {
    const { dir, bakery } = seeded();
    const before = withDb(dir, customerTables);
    const file = join(dir, "nohead.csv");
    writeFileSync(file, "4155550170,SMS\n");
    const res = run(["customers", "import", "--business", String(bakery), file], dir);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('the first line must be the header "phone,contactPreference"');
    const missing = run(["customers", "import", "--business", String(bakery), join(dir, "nope.csv")], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read");
    expect(withDb(dir, customerTables)).toEqual(before);
  });

  test("written IMPORT_CHUNK rows per transaction: a failure half-way keeps the chunks before it, and a re-run completes the file", () => {
    const { dir, bakery } = seeded();
    const phoneOf = (i: number) => `+1628${String(5_000_000 + i)}`;
    // A database trigger makes a row of the second chunk fail, as a full disk or a bug would.
    withDb(dir, (ctx) =>
      ctx.db.$client.exec(`CREATE TRIGGER boom BEFORE INSERT ON customers WHEN NEW.phone = '${phoneOf(IMPORT_CHUNK + 10)}' BEGIN SELECT RAISE(ABORT, 'simulated failure'); END`),
    );
    const before = withDb(dir, customerTables).customers.length;
    const file = join(dir, "c.csv");
    writeFileSync(file, `phone,contactPreference\n${Array.from({ length: 600 }, (_, i) => `${phoneOf(i + 1)},SMS`).join("\n")}\n`);
    const res = run(["customers", "import", "--business", String(bakery), file], dir);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("simulated failure");
    // The first chunk is in; nothing of the second.
    const afterFailure = withDb(dir, customerTables).customers.map((c) => c.phone);
    expect(afterFailure.length).toBe(before + IMPORT_CHUNK);
    expect(afterFailure).toContain(phoneOf(IMPORT_CHUNK));
    expect(afterFailure).not.toContain(phoneOf(IMPORT_CHUNK + 1));
    withDb(dir, (ctx) => ctx.db.$client.exec("DROP TRIGGER boom"));
    const again = run(["customers", "import", "--business", String(bakery), file, "--json"], dir);
    expect(again.code).toBe(0);
    const summary = JSON.parse(again.stdout) as { added: unknown[]; already: unknown[] };
    expect([summary.added.length, summary.already.length]).toEqual([600 - IMPORT_CHUNK, IMPORT_CHUNK]);
    // Not a terminal: the progress bar's last line, with the rows and their rate, on stderr only.
    expect(again.stderr).toMatch(/\[#{24}\] 100% 600\/600 rows · [\d,]+ rows\/s\n$/);
  });
});

describe("nearcast customers forget", () => {
  test("erases the person completely and says what was erased; others are untouched", () => {
    const { dir } = seeded();
    const before = withDb(dir, customerTables);
    const person = before.customers.find((c) => c.phone === "+14155550134")!;
    const res = run(["customers", "forget", "(415) 555-0134"], dir);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      `Erased +14155550134 (customer ${person.id}): the customer record, 2 subscriptions (Sunrise Bakery, Corner Gym), 2 consent events, 0 link clicks, 0 coupon redemptions and 0 stored replies.\n`,
    );
    const after = withDb(dir, customerTables);
    expect(after.customers.map((c) => c.phone)).not.toContain("+14155550134");
    expect(after.subscriptions.filter((s) => s.customerId === person.id)).toEqual([]);
    expect(after.consentEvents.filter((e) => e.customerId === person.id)).toEqual([]);
    expect(after.customers).toHaveLength(before.customers.length - 1);
    expect(after.subscriptions).toHaveLength(before.subscriptions.length - 2);
    expect(after.consentEvents).toHaveLength(before.consentEvents.length - 2);
  });

  test("an unknown number: nothing to erase (exit 0); an invalid one exits 2", () => {
    const { dir } = seeded();
    const res = run(["customers", "forget", "+1 415 555 0199"], dir);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("Nothing to erase: no customer has the phone number +14155550199.\n");
    const bad = run(["customers", "forget", "hello"], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("nearcast: Please enter a valid phone number\n");
  });

  test("--json", () => {
    const { dir } = seeded();
    const res = run(["customers", "forget", "+14155550135", "--json"], dir);
    expect(JSON.parse(res.stdout)).toMatchObject({
      phone: "+14155550135",
      erased: true,
      subscriptions: 1,
      consentEvents: 1,
      linkClicks: 0,
      couponRedemptions: 0,
      businesses: ["Sunrise Bakery"],
    });
  });
});
