// `nearcast businesses update ID --keyword WORD` (issue 24, item 5) as a user runs it: a real process on a real data
// directory. Only the keyword changes; the field's rules and the 409 are the API's (business-keyword.test.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { KEYWORD_FORMAT, KEYWORD_TAKEN, keywordReserved } from "../../src/schemas/join-keyword.ts";
import { cliEnv, json, nearcast as runNearcast, tempDataDirs } from "../helpers/cli.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";

const ENV = cliEnv({ TWILIO_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef", TWILIO_AUTH_TOKEN: "secret-token-123456", TWILIO_FROM: "+15550001111" });
const nearcast = (args: string[], dataDir?: string) => runNearcast(args, dataDir, ENV);

const dirs = tempDataDirs("nearcast-cli-keyword");
afterAll(dirs.removeAll);

describe("businesses update --keyword", () => {
  let dir: string;
  const ids = { bakery: 0, gym: 0 };

  beforeAll(() => {
    dir = dirs.make();
    const ctx = createContext(loadConfig({}, { dataDir: dir }), { logger: new MemoryLogger() });
    const ana = insertUser(ctx, { email: "ana@shop.com" });
    // Saved before the sample image was required: the keyword alone still changes.
    ids.bakery = insertBusiness(ctx, { ownerId: ana.id, name: "Ana's Bakery", sampleImagePath: null }).id;
    ids.gym = insertBusiness(ctx, { ownerId: insertUser(ctx).id, name: "Ben's Gym", keyword: "GYM" }).id;
    ctx.close();
  });

  const keywordOf = (id: number) => json(nearcast(["businesses", "show", String(id), "--json"], dir)).keyword;

  test("sets it (upper-case), says what posters now say, and show lists it; \"\" clears it", () => {
    expect(nearcast(["businesses", "update", String(ids.bakery), "--keyword", "bagel"], dir)).toEqual({
      code: 0,
      stdout: `Ana's Bakery: join keyword BAGEL. Posters and the subscribe page now say "or text BAGEL to +1 555 000 1111".\n`,
      stderr: "",
    });
    expect(keywordOf(ids.bakery)).toBe("BAGEL");
    expect(nearcast(["businesses", "show", String(ids.bakery)], dir).stdout).toContain("Join keyword:    BAGEL\n");
    expect(nearcast(["businesses", "update", String(ids.bakery), "--keyword", ""], dir)).toMatchObject({ code: 0, stdout: "Ana's Bakery: no join keyword.\n" });
    expect(keywordOf(ids.bakery)).toBeNull();
    expect(nearcast(["businesses", "show", String(ids.bakery)], dir).stdout).toContain("Join keyword:    (none)\n");
  });

  test("refused with the field's message, nothing written: taken, reserved, malformed", () => {
    for (const [word, message] of [["gym", KEYWORD_TAKEN], ["Stop", keywordReserved("STOP")], ["two words", KEYWORD_FORMAT]] as const) {
      expect(nearcast(["businesses", "update", String(ids.bakery), "--keyword", word], dir)).toEqual({ code: 2, stdout: "", stderr: `nearcast: ${message}\n` });
    }
    expect(keywordOf(ids.bakery)).toBeNull();
    expect(keywordOf(ids.gym)).toBe("GYM");
  });

  test("an unknown business, and a missing --keyword", () => {
    expect(nearcast(["businesses", "update", "999", "--keyword", "BAGEL"], dir)).toMatchObject({ code: 2, stderr: "nearcast: Business not found.\n" });
    const run = nearcast(["businesses", "update", String(ids.bakery)], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("required option '--keyword <word>' not specified");
    expect(nearcast(["businesses", "update", "--help"]).stdout).toContain("Examples:\n  $ nearcast businesses update 3 --keyword BAGEL");
  });
});
