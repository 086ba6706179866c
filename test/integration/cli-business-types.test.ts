// `nearcast business-types ...` as a user runs it: a real process on a real data directory.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type Run, json, nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { businessTypes } from "../../src/db/schema.ts";
import { insertBusiness } from "../helpers/factories.ts";

const bt = (dataDir: string, ...args: string[]) => nearcast(["business-types", ...args], dataDir);

/** A user-facing failure: the given exit code, nothing on stdout, exactly one "nearcast: ..." or "error: ..." line. */
function expectOneLineError(run: Run, code: number, message: string | RegExp): void {
  expect(run.code).toBe(code);
  expect(run.stdout).toBe("");
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  if (typeof message === "string") expect(lines[0]).toBe(message);
  else expect(lines[0]).toMatch(message);
  expect(run.stderr).not.toMatch(/\bat .*\.ts:\d+|Error:|^\s+at /m);
}

const dirs = tempDataDirs("nearcast-cli-bt");
afterAll(dirs.removeAll);

/** A data directory whose database has no business types yet (not even the ones a fresh database is seeded with),
 * so ids start at 1. */
function dataDir(): string {
  const dir = dirs.make();
  withDataDir(dir, (ctx) => {
    ctx.db.delete(businessTypes).run();
    ctx.db.$client.run("DELETE FROM sqlite_sequence WHERE name = 'business_types'");
  });
  return dir;
}

describe("business-types add / list / update / remove", () => {
  let dir: string;
  beforeAll(() => {
    dir = dataDir();
  });

  test("a fresh data directory lists the seeded types; with none, (none)", () => {
    const seeded = json(bt(dirs.make(), "list", "--json"));
    expect(seeded.map((t: { name: string; isActive: boolean }) => [t.name, t.isActive])).toEqual(
      ["Auto & Car Service", "Gym & Fitness", "Other", "Pizza", "Real Estate", "Restaurant", "Retail Shop", "Salon & Beauty"].map((n) => [n, true]),
    );
    const plain = bt(dir, "list");
    expect(plain).toMatchObject({ code: 0, stdout: "(none)\n", stderr: "" });
    expect(json(bt(dir, "list", "--json"))).toEqual([]);
  });

  test("add prints one line, or the type as JSON", () => {
    const added = bt(dir, "add", "--name", "Bakery", "--description", "Bread, cakes and pastries");
    expect(added).toMatchObject({ code: 0, stdout: "Added business type 1: Bakery\n", stderr: "" });

    const florist = json(bt(dir, "add", "--name", "  Florist ", "--active", "false", "--json"));
    expect(florist).toEqual({ id: 2, name: "Florist", description: "", isActive: false, createdAt: expect.any(String) });
    expect(new Date(florist.createdAt).toISOString()).toBe(florist.createdAt);

    const inactive = bt(dir, "add", "--name", "Antiques", "--active", "No");
    expect(inactive.stdout).toBe("Added business type 3: Antiques (inactive)\n");
  });

  test("list shows every type alphabetically, as a table or as JSON", () => {
    const types = json(bt(dir, "list", "--json"));
    expect(types.map((t: { name: string; isActive: boolean }) => [t.name, t.isActive])).toEqual([
      ["Antiques", false],
      ["Bakery", true],
      ["Florist", false],
    ]);
    const table = bt(dir, "list");
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS\s+DESCRIPTION\s+CREATEDAT$/);
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^1\s+Bakery\s+active\s+Bread, cakes and pastries\s+\d{4}-\d{2}-\d{2}$/);
    expect(lines[3]).toMatch(/^2\s+Florist\s+inactive\s+\d{4}-\d{2}-\d{2}$/);
  });

  test("the table keeps a long or multi-line description on one short line", () => {
    const d = dataDir();
    bt(d, "add", "--name", "Gym", "--description", `Weights, classes\nand a pool. ${"x".repeat(200)}`);
    const lines = bt(d, "list").stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("Weights, classes…");
    expect(lines[1]!.length).toBeLessThan(120);
  });

  test("update changes only the options given", () => {
    const renamed = json(bt(dir, "update", "1", "--name", "Bread & Cakes", "--json"));
    expect(renamed).toMatchObject({ id: 1, name: "Bread & Cakes", description: "Bread, cakes and pastries", isActive: true });

    const activated = bt(dir, "update", "2", "--active", "true");
    expect(activated).toMatchObject({ code: 0, stdout: "Updated business type 2: Florist\n", stderr: "" });

    const cleared = json(bt(dir, "update", "1", "--description", "", "--json"));
    expect(cleared).toMatchObject({ name: "Bread & Cakes", description: "", isActive: true });
  });

  test("remove deletes, then the id is unknown", () => {
    expect(bt(dir, "remove", "3")).toMatchObject({ code: 0, stdout: "Removed business type 3: Antiques (inactive)\n", stderr: "" });
    expect(json(bt(dir, "remove", "2", "--json"))).toMatchObject({ id: 2, name: "Florist" });
    expect(json(bt(dir, "list", "--json")).map((t: { id: number }) => t.id)).toEqual([1]);
    expectOneLineError(bt(dir, "remove", "3"), 2, "nearcast: Business type not found.");
  });
});

describe("business-types input errors: exit 2, one line on stderr, no stack trace, nothing changed", () => {
  let dir: string;
  beforeAll(() => {
    dir = dataDir();
    json(bt(dir, "add", "--name", "Bakery", "--json"));
  });

  const cases: [string, string[], string | RegExp][] = [
    ["name too short", ["add", "--name", "B"], "nearcast: Name must be at least 2 characters long"],
    ["name blank", ["add", "--name", "   "], "nearcast: Business type name is required"],
    ["name too long", ["add", "--name", "n".repeat(101)], "nearcast: Name cannot exceed 100 characters"],
    ["description too long", ["add", "--name", "Gym", "--description", "d".repeat(501)], "nearcast: Description cannot exceed 500 characters"],
    ["duplicate name, other case", ["add", "--name", "BAKERY"], "nearcast: A business type with this name already exists."],
    ["bad --active", ["add", "--name", "Gym", "--active", "maybe"], 'nearcast: --active must be true or false (got "maybe")'],
    ["--name missing", ["add"], "error: required option '--name <name>' not specified"],
    ["unknown option", ["list", "--colour"], "error: unknown option '--colour'"],
    ["unknown subcommand", ["frobnicate", "1"], "error: unknown command 'frobnicate'"],
    ["update unknown id", ["update", "99", "--name", "Gym"], "nearcast: Business type not found."],
    ["update non-numeric id", ["update", "abc", "--name", "Gym"], 'nearcast: ID must be a positive whole number (got "abc")'],
    ["update to a short name", ["update", "1", "--name", "x"], "nearcast: Name must be at least 2 characters long"],
    ["update without id", ["update"], "error: missing required argument 'id'"],
    ["remove unknown id", ["remove", "42"], "nearcast: Business type not found."],
    ["remove id zero", ["remove", "0"], 'nearcast: ID must be a positive whole number (got "0")'],
    ["remove fractional id", ["remove", "1.5"], 'nearcast: ID must be a positive whole number (got "1.5")'],
  ];

  for (const [what, args, message] of cases) {
    test(what, () => {
      const before = bt(dir, "list", "--json").stdout;
      expectOneLineError(bt(dir, ...args), 2, message);
      expect(bt(dir, "list", "--json").stdout).toBe(before);
    });
  }

  test("a mistyped subcommand gets a suggestion", () => {
    const run = bt(dir, "rmove", "1");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("error: unknown command 'rmove'\n(Did you mean remove?)\n");
  });

  test("remove of a type a business uses: exit 2, the reason, nothing deleted", () => {
    const d = dataDir();
    const type = json(bt(d, "add", "--name", "Barber", "--json"));
    withDataDir(d, (ctx) => insertBusiness(ctx, { businessTypeId: type.id }));
    expectOneLineError(
      bt(d, "remove", String(type.id)),
      2,
      'nearcast: "Barber" is used by 1 business and cannot be deleted. Mark it inactive instead.',
    );
    expect(json(bt(d, "list", "--json"))).toEqual([type]);
  });
});

describe("help", () => {
  test("nearcast business-types --help lists the subcommands with examples", () => {
    const run = nearcast(["business-types", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("Usage: nearcast business-types");
    for (const sub of ["list", "add", "update", "remove"]) expect(run.stdout).toMatch(new RegExp(`^\\s+${sub} `, "m"));
    expect(run.stdout).toContain("Examples:");
    expect(run.stdout).toContain("$ nearcast business-types add --name Bakery");
  });

  for (const sub of ["list", "add", "update", "remove"]) {
    test(`nearcast business-types ${sub} --help shows examples`, () => {
      const run = nearcast(["business-types", sub, "--help"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Usage: nearcast business-types ${sub}`);
      expect(run.stdout).toContain("--data-dir <dir>");
      expect(run.stdout).toContain("Examples:");
      expect(run.stdout).toContain(`$ nearcast business-types ${sub}`);
    });
  }

  test("business-types without a subcommand shows the help and exits 2", () => {
    const run = nearcast(["business-types"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Examples:");
  });
});
