// `nearcast registration --business N [--json]` as a user runs it: a real process on a real data directory. The
// human output is labelled lines in the order of Twilio's forms; --json is the kit the API answers.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { OPERATOR } from "../../src/services/principal.ts";
import { KIT_NEEDS_PUBLIC_URL } from "../../src/services/registration/index.ts";
import { PUBLIC_URL } from "../helpers/api.ts";
import { cliEnv, json, nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { insertBusiness } from "../helpers/factories.ts";

setDefaultTimeout(30_000); // every test starts a real process

const dirs = tempDataDirs("nearcast-cli-registration");
afterAll(() => dirs.removeAll());

function shop(): { dir: string; id: number } {
  const dir = dirs.make();
  const id = withDataDir(dir, (ctx) => insertBusiness(ctx, { name: "Rosa's Bakery", messagesPerWeek: 2 }).id);
  return { dir, id };
}

const withUrl = cliEnv({ NEARCAST_PUBLIC_URL: PUBLIC_URL });
const noUrl = cliEnv({ NEARCAST_PUBLIC_URL: undefined });

describe("nearcast registration", () => {
  test("--json prints the kit the service builds, with the form's field names", () => {
    const { dir, id } = shop();
    const kit = json(nearcast(["registration", "--business", String(id), "--json"], dir, withUrl));
    const expected = withDataDir(dir, (ctx) => {
      ctx.services.settings.update(OPERATOR, { publicUrl: PUBLIC_URL });
      return ctx.services.registration.kit(OPERATOR, id);
    });
    expect(kit).toEqual(expected);
    for (const key of ["useCase", "description", "optInType", "optInDescription", "optInImageUrl", "programUrl", "privacyUrl", "termsUrl", "sampleMessages", "monthlyVolume", "keywords"]) {
      expect(kit).toHaveProperty(key);
    }
    expect(kit.programUrl).toBe(`${PUBLIC_URL}/program?id=${id}`);
  });

  test("the human output: one labelled line per field, problems last; exit 0", () => {
    const { dir, id } = shop();
    const run = nearcast(["registration", "--business", String(id)], dir, withUrl);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const labels = run.stdout.trimEnd().split("\n").map((l) => /^([A-Za-z][A-Za-z0-9 -]*):/.exec(l)?.[1]);
    expect(labels).toEqual([
      "Business",
      "Use case",
      "Description",
      "Opt-in type",
      "Opt-in workflow",
      "Opt-in image URL",
      "Program page URL",
      "Privacy URL",
      "Terms URL",
      "Sample message 1",
      "Sample message 2",
      "Monthly volume",
      "Keyword STOP",
      "Keyword START",
      "Keyword HELP",
      "Sender",
    ]);
    expect(run.stdout).toMatch(new RegExp(`^Program page URL:\\s+${PUBLIC_URL.replaceAll(".", "\\.")}/program\\?id=${id}$`, "m"));
    expect(run.stdout).toMatch(/^Use case:\s+MARKETING$/m);
    expect(run.stdout).not.toContain("Problems");
  });

  test("without a public URL: the URLs say they are missing and the problem says what to set; still exit 0", () => {
    const { dir, id } = shop();
    const run = nearcast(["registration", "--business", String(id)], dir, noUrl);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Program page URL:\s+\(missing: no public URL saved\)$/m);
    expect(run.stdout).toContain(`Problems (1):\n  - ${KIT_NEEDS_PUBLIC_URL}\n`);
    expect(json(nearcast(["registration", "--business", String(id), "--json"], dir, noUrl))).toMatchObject({ programUrl: null, problems: [KIT_NEEDS_PUBLIC_URL] });
  });

  test("an unknown business and a bad id are input errors (exit 2), with nothing on stdout", () => {
    const { dir } = shop();
    const unknown = nearcast(["registration", "--business", "999"], dir, withUrl);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Business not found.");
    expect(unknown.stdout).toBe("");
    const bad = nearcast(["registration", "--business", "abc"], dir, withUrl);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--business must be a positive whole number");
  });
});
