// `nearcast users approve EMAIL` / `users refuse EMAIL` (issue 21, item 2) as a user runs them on a real data dir:
// the account's state changes (and a refused one's sessions end), `users list` shows it, an unknown email exits 2.
import { afterAll, expect, test } from "bun:test";
import { insertUser } from "../helpers/factories.ts";
import { sessionFor } from "../helpers/customer-factories.ts";
import { json, nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";

const dirs = tempDataDirs("nearcast-cli-users-approval");
afterAll(dirs.removeAll);

test("approve and refuse by email; list shows the state; an unknown email exits 2 and changes nothing", () => {
  const dir = dirs.make();
  const token = withDataDir(dir, (ctx) => {
    insertUser(ctx, { role: "admin", email: "boss@shop.com" });
    const owner = insertUser(ctx, { email: "rosa@shop.com", status: "pending" });
    return sessionFor(ctx, owner);
  });
  const states = () => (json(nearcast(["users", "list", "--json"], dir)) as { email: string; status: string }[]).map((u) => [u.email, u.status]);
  expect(states()).toEqual([["boss@shop.com", "approved"], ["rosa@shop.com", "pending"]]);

  const approve = nearcast(["users", "approve", "Rosa@Shop.com"], dir);
  expect(approve.code).toBe(0);
  expect(approve.stdout).toContain("Approved rosa@shop.com");
  expect(states()).toEqual([["boss@shop.com", "approved"], ["rosa@shop.com", "approved"]]);

  const refuse = nearcast(["users", "refuse", "rosa@shop.com"], dir);
  expect(refuse.code).toBe(0);
  expect(refuse.stdout).toContain("Refused rosa@shop.com");
  expect(states()).toEqual([["boss@shop.com", "approved"], ["rosa@shop.com", "refused"]]);
  // Its session ended.
  expect(withDataDir(dir, (ctx) => ctx.services.auth.authenticate(token))).toBeUndefined();
  const table = nearcast(["users", "list"], dir);
  expect(table.stdout).toMatch(/rosa@shop\.com\s+\S+ \S+\s+owner\s+refused/);

  for (const args of [["users", "approve", "nobody@shop.com"], ["users", "refuse", "nobody@shop.com"]]) {
    const run = nearcast(args, dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no account with email nobody@shop.com");
  }
  // The last admin cannot be refused, not even here.
  const last = nearcast(["users", "refuse", "boss@shop.com"], dir);
  expect(last.code).toBe(2);
  expect(last.stderr).toContain("last administrator");
  expect(states()).toEqual([["boss@shop.com", "approved"], ["rosa@shop.com", "refused"]]);
  expect(nearcast(["users", "approve"], dir).code).toBe(2);
}, 60_000);
