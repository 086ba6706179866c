// One exit-code table for every command (cli/exit-codes.ts): 0 ok, 1 failure, 2 usage or bad input, 3 partly done.
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, json, nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { insertBusiness } from "../helpers/factories.ts";

const dirs = tempDataDirs("nearcast-cli-exit");
afterAll(dirs.removeAll);
const dir = dirs.make();

describe("usage mistakes exit 2 with an error on stderr, for every command", () => {
  const USAGE: string[][] = [
    [],
    ["bogus"],
    ["--bogus"],
    ["help", "bogus"],
    ["serve", "--bogus"],
    ["users"],
    ["users", "bogus"],
    ["users", "create"],
    ["users", "list", "--bogus"],
    ["users", "reset-password"],
    ["business-types"],
    ["business-types", "add"],
    ["businesses"],
    ["businesses", "show"],
    ["poster"],
    ["customers"],
    ["customers", "import"],
    ["customers", "forget"],
    ["broadcast"],
    ["broadcast", "send"],
    ["broadcast", "status"],
    ["settings"],
    ["settings", "set"],
    ["doctor", "--bogus"],
    ["backup", "--bogus"],
    ["restore"],
    ["migrate", "--bogus"],
    ["install-service", "--bogus"],
  ];
  test.each(USAGE.map((args) => [args.join(" ") || "(nothing)", args] as const))("nearcast %s", (_name, args) => {
    const run = nearcast(args, args.length === 0 ? undefined : undefined);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toBe("");
    expect(run.stderr).not.toMatch(/^\s+at .*:\d+:\d+\)?$/m); // no stack trace
  });
});

test("--help, --version and help COMMAND exit 0; the root help holds the exit-code table", () => {
  const help = nearcast(["--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain("Exit codes (every command):\n  0  ok\n  1  failure");
  expect(help.stdout).toContain("  2  usage or bad input");
  expect(help.stdout).toContain(
    "  3  partly done (an import with invalid rows: the valid ones were added; a prune that kept broadcasts with links or coupons younger than 90 days)",
  );
  expect(nearcast(["--version"]).code).toBe(0);
  expect(nearcast(["help", "users"]).code).toBe(0);
});

test("an import with invalid rows exits 3 (the valid rows are in); a clean one 0; an unreadable file 2, in words", () => {
  const business = withDataDir(dir, (ctx) => insertBusiness(ctx));
  const csv = join(dir, "mixed.csv");
  writeFileSync(csv, "phone,contactPreference\n+14155550181,SMS\nnot-a-phone,SMS\n");
  const mixed = nearcast(["customers", "import", "--business", String(business.id), csv, "--json"], dir, cliEnv());
  expect(mixed.code).toBe(3);
  const summary = JSON.parse(mixed.stdout);
  expect(summary.added).toHaveLength(1);
  expect(summary.invalid).toEqual([expect.objectContaining({ line: 3 })]);
  const clean = join(dir, "clean.csv");
  writeFileSync(clean, "phone,contactPreference\n+14155550182,SMS\n");
  expect(json(nearcast(["customers", "import", "--business", String(business.id), clean, "--json"], dir)).added).toHaveLength(1);
  const missing = nearcast(["customers", "import", "--business", String(business.id), join(dir, "nope.csv")], dir);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toBe(`nearcast: cannot read ${join(dir, "nope.csv")}: no such file or folder\n`);
});

test("a file that cannot be written is named, in words: poster --out and backup --out", () => {
  const business = withDataDir(dir, (ctx) => insertBusiness(ctx));
  const poster = nearcast(["poster", "--business", String(business.id), "--out", "/nonexistent-dir/p.pdf"], dir);
  expect(poster.code).toBe(2);
  expect(poster.stderr.split("\n")[0]).toBe("nearcast: --out: cannot write /nonexistent-dir/p.pdf (no such file or folder)");
  const file = join(dir, "a-file");
  writeFileSync(file, "");
  const backup = nearcast(["backup", "--out", join(file, "b.tar.gz")], dir);
  expect(backup.code).toBe(2);
  expect(backup.stderr).toBe(`nearcast: --out: cannot write ${join(file, "b.tar.gz")} (a file is in the way of a folder it needs)\n`);
});
