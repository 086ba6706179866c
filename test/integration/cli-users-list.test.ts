// `nearcast users list [--json]`: every account with its role, never a password hash.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { json, nearcast, tempDataDirs } from "../helpers/cli.ts";

setDefaultTimeout(60_000); // argon2, deliberately slow, in each users create
const dirs = tempDataDirs("nearcast-cli-users-list");
afterAll(dirs.removeAll);

test("--json lists each account with its role; the table shows the role column; no hash anywhere", () => {
  const dir = dirs.makeEmpty();
  expect(nearcast(["users", "create", "--email", "boss@shop.com", "--password", "secret-1", "--admin"], dir).code).toBe(0);
  expect(nearcast(["users", "create", "--email", "ana@shop.com", "--password", "secret-2", "--first-name", "Ana"], dir).code).toBe(0);
  const list = json(nearcast(["users", "list", "--json"], dir)) as Record<string, unknown>[];
  expect(list.map((u) => [u.email, u.role, u.status])).toEqual([
    ["boss@shop.com", "admin", "approved"],
    ["ana@shop.com", "owner", "approved"],
  ]);
  for (const u of list) expect(Object.keys(u).some((k) => /hash|password/i.test(k))).toBe(false);
  const table = nearcast(["users", "list"], dir);
  expect(table.code).toBe(0);
  expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+EMAIL\s+NAME\s+ROLE\s+STATUS\s+CREATEDAT$/);
  expect(table.stdout).toMatch(/ana@shop\.com\s+Ana User\s+owner\s+approved/);
  expect(table.stdout).not.toContain("$argon2");
});
