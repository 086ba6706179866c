// `nearcast businesses list|show` as a user runs it: a real process on a real data directory.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { cliEnv, json, nearcast as runNearcast, tempDataDirs } from "../helpers/cli.ts";
import { insertBusiness, insertBusinessType, insertUser } from "../helpers/factories.ts";
import { PNG } from "../helpers/images.ts";

const ENV = cliEnv({ NEARCAST_PUBLIC_URL: "https://deals.example.com" });
const nearcast = (args: string[], dataDir?: string) => runNearcast(args, dataDir, ENV);

const dirs = tempDataDirs("nearcast-cli-biz");
const dataDir = dirs.make;
afterAll(dirs.removeAll);

describe("businesses list / show", () => {
  let dir: string;
  const ids = { ana: 0, ben: 0, shop: 0, hidden: 0, bagels: 0 };
  let logo = "";

  beforeAll(async () => {
    dir = dataDir();
    const ctx = createContext(loadConfig({}, { dataDir: dir }), { logger: new MemoryLogger() });
    const ana = insertUser(ctx, { email: "ana@shop.com" });
    const ben = insertUser(ctx, { email: "ben@shop.com" });
    insertUser(ctx, { email: "nobody@shop.com" });
    const bakery = insertBusinessType(ctx, { name: "Bakery" });
    logo = (await ctx.services.uploads.saveBytes(ana.id, "logo", PNG)).filePath;
    const shop = insertBusiness(ctx, {
      ownerId: ana.id,
      businessTypeId: bakery.id,
      name: "Ana's Bakery",
      logoImagePath: logo,
      sampleImagePath: logo,
      createdAt: new Date("2026-02-01T09:00:00Z"),
    });
    const hidden = insertBusiness(ctx, { ownerId: ana.id, businessTypeId: bakery.id, name: "Old Shop", isActive: false, createdAt: new Date("2026-02-02T09:00:00Z") });
    const bagels = insertBusiness(ctx, { ownerId: ben.id, businessTypeId: bakery.id, name: "Ben's Bagels", posterOffer: "BAGEL DEAL: a free coffee with 6 bagels", timeZone: "America/Chicago", createdAt: new Date("2026-02-03T09:00:00Z") });
    Object.assign(ids, { ana: ana.id, ben: ben.id, shop: shop.id, hidden: hidden.id, bagels: bagels.id });
    ctx.close();
  });

  test("list on a fresh data directory", () => {
    const fresh = dataDir();
    expect(nearcast(["businesses", "list"], fresh)).toMatchObject({ code: 0, stdout: "(none)\n", stderr: "" });
    expect(json(nearcast(["businesses", "list", "--json"], fresh))).toEqual([]);
  });

  test("list --json: every business of every owner, newest first, with the owner's email", () => {
    const list = json(nearcast(["businesses", "list", "--json"], dir));
    expect(list.map((b: { name: string }) => b.name)).toEqual(["Ben's Bagels", "Old Shop", "Ana's Bakery"]);
    expect(list[2]).toMatchObject({
      id: ids.shop,
      ownerId: ids.ana,
      ownerEmail: "ana@shop.com",
      businessType: { name: "Bakery" },
      isActive: true,
      logoImagePath: logo,
      createdAt: "2026-02-01T09:00:00.000Z",
    });
    expect(list[1]).toMatchObject({ isActive: false });
  });

  test("list as a table", () => {
    const run = nearcast(["businesses", "list"], dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+NAME\s+TYPE\s+OWNER\s+STATUS\s+CREATEDAT$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/Ben's Bagels\s+Bakery\s+ben@shop.com\s+active\s+2026-02-03/);
    expect(lines[2]).toMatch(/Old Shop\s+Bakery\s+ana@shop.com\s+inactive\s+2026-02-02/);
  });

  test("list --owner: only that account's businesses (email case-insensitive)", () => {
    const ana = json(nearcast(["businesses", "list", "--owner", "ANA@shop.com", "--json"], dir));
    expect(ana.map((b: { id: number }) => b.id)).toEqual([ids.hidden, ids.shop]);
    expect(json(nearcast(["businesses", "list", "--owner", "nobody@shop.com", "--json"], dir))).toEqual([]);
  });

  test("list --owner with an unknown email: one line, exit 2", () => {
    const run = nearcast(["businesses", "list", "--owner", "ghost@shop.com"], dir);
    expect(run).toMatchObject({ code: 2, stdout: "", stderr: "nearcast: No account with the email ghost@shop.com\n" });
  });

  test("show --json: the full record", () => {
    const b = json(nearcast(["businesses", "show", String(ids.bagels), "--json"], dir));
    expect(b).toMatchObject({ id: ids.bagels, name: "Ben's Bagels", ownerEmail: "ben@shop.com", ownerId: ids.ben, isActive: true });
    expect(Object.keys(b)).toContain("successMessage");
  });

  test("show as text", () => {
    const run = nearcast(["businesses", "show", String(ids.shop)], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Name:            Ana's Bakery\n");
    expect(run.stdout).toContain(`Owner:           ana@shop.com (${ids.ana})\n`);
    expect(run.stdout).toContain(`Logo:            ${logo}\n`);
    // The frequency customers are told (issue 11), 4 unless the owner changed it.
    expect(run.stdout).toContain("Per week:        up to 4 messages\n");
    expect(run.stdout).toContain(`Subscribe link:  https://deals.example.com/subscribe?id=${ids.shop}\n`);
  });

  test("show as text: the poster offer, or the type's keyword deal when it was never set", () => {
    expect(nearcast(["businesses", "show", String(ids.bagels)], dir).stdout).toContain("Poster offer:    BAGEL DEAL: a free coffee with 6 bagels\n");
    expect(nearcast(["businesses", "show", String(ids.shop)], dir).stdout).toContain(
      "Poster offer:    SPECIAL OFFER: 25% OFF your next purchase! (the type's deal)\n",
    );
  });

  test("show as text: the time zone quiet hours use, or the server's when none is set", () => {
    expect(nearcast(["businesses", "show", String(ids.bagels)], dir).stdout).toContain("Time zone:       America/Chicago\n");
    expect(nearcast(["businesses", "show", String(ids.shop)], dir).stdout).toContain("Time zone:       (the server's)\n");
  });

  test("show an unknown id: one line, exit 2", () => {
    expect(nearcast(["businesses", "show", "999"], dir)).toMatchObject({ code: 2, stdout: "", stderr: "nearcast: Business not found.\n" });
  });

  test("show a malformed id: one line, exit 2", () => {
    expect(nearcast(["businesses", "show", "abc"], dir)).toMatchObject({ code: 2, stdout: "", stderr: 'nearcast: ID must be a positive whole number (got "abc")\n' });
  });

  test("show without an id: usage error, exit 2", () => {
    const run = nearcast(["businesses", "show"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("missing required argument 'id'");
  });

  test("--help shows examples", () => {
    for (const args of [["businesses", "--help"], ["businesses", "list", "--help"], ["businesses", "show", "--help"]]) {
      const run = nearcast(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Examples:\n  $ nearcast businesses");
    }
    expect(nearcast(["--help"]).stdout).toContain("businesses");
  });
});
