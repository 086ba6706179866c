// `nearcast broadcast send --template HX… --var n=value` (or --content-variables JSON) as a user runs it, in the
// sandbox (its built-in demo templates): the template is recorded on the broadcast, and the WhatsApp subscriber, who
// never wrote to us, is sent it rather than skipped; a variable that does not fit the template is an input error naming
// ContentVariables, and nothing is stored.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { broadcasts } from "../../src/db/schema.ts";
import { SANDBOX_TEXT_TEMPLATE_SID } from "../../src/messaging/content-templates.ts";
import { nearcast as runNearcast, sandboxEnv, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { cliShop } from "../helpers/worlds.ts";

setDefaultTimeout(30_000); // real processes

const dirs = tempDataDirs("nearcast-cli-template");
afterAll(() => dirs.removeAll());

const env = sandboxEnv({ NEARCAST_ALLOWED_COUNTRIES: "*" });
const nearcast = (args: string[], dir: string) => runNearcast(args, dir, env);

const world = () => cliShop(dirs, [{ phone: "+447400123458", contactPreference: "WhatsApp" }, { phone: "+14157001002" }]);

describe("nearcast broadcast send --template", () => {
  test("--var n=value fills the template, stored on the broadcast; the WhatsApp subscriber (no recent message) is not skipped", () => {
    const w = world();
    const r = nearcast(
      ["broadcast", "send", "--business", String(w.businessId), "--message", "Fresh bread at 7", "--template", SANDBOX_TEXT_TEMPLATE_SID, "--var", "1=Ana's Bakery", "--var", "2=Fresh bread at 7", "--yes"],
      w.dir,
    );
    expect(r.stderr).not.toContain("error");
    expect(r.code).toBe(0);
    const [b] = withDataDir(w.dir, (ctx) => ctx.db.select().from(broadcasts).all());
    expect(b!.contentSid).toBe(SANDBOX_TEXT_TEMPLATE_SID);
    expect(JSON.parse(b!.contentVariables!)).toEqual({ "1": "Ana's Bakery", "2": "Fresh bread at 7" });
    const status = nearcast(["broadcast", "status", String(b!.id), "--json"], w.dir);
    expect(JSON.parse(status.stdout)).toMatchObject({ total: 2, skipped: 0 });
  });

  test("--content-variables JSON with a missing variable: exit 2 naming it, nothing stored", () => {
    const w = world();
    const r = nearcast(["broadcast", "send", "--business", String(w.businessId), "--message", "Hi", "--template", SANDBOX_TEXT_TEMPLATE_SID, "--content-variables", '{"1":"Ana"}', "--no-wait", "--yes"], w.dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("ContentVariables is missing {{2}}.");
    expect(withDataDir(w.dir, (ctx) => ctx.db.select().from(broadcasts).all())).toHaveLength(0);
  });

  test("--var that is not n=value: exit 2", () => {
    const w = world();
    const r = nearcast(["broadcast", "send", "--business", String(w.businessId), "--message", "Hi", "--template", SANDBOX_TEXT_TEMPLATE_SID, "--var", "oops", "--no-wait", "--yes"], w.dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--var must be n=value");
  });
});
