// Issue 21, item 5: every text setting refuses CR, LF and every other control character, the same way on each path
// in: PUT /api/settings (400 naming the key, nothing saved), `nearcast settings set` (exit 2, one line) and the
// environment (the program stops with one line naming the variable). brandName and publicUrl took them before.
import { afterAll, describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { SETTING_ENV, SETTING_KEYS, type SettingKey } from "../../src/schemas/settings.ts";
import { apiClient } from "../helpers/api.ts";
import { cliEnv, nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { sessionFor } from "../helpers/customer-factories.ts";
import { insertUser } from "../helpers/factories.ts";
import { testContext } from "../helpers/context.ts";
import { type ApiScenario, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";

const ONE_LINE = /^.+ must be one line, without line breaks or other control characters$/;

/** A value each key takes as it is; the tests put a control character inside or at its end. */
const GOOD: Record<string, string> = {
  publicUrl: "https://deals.example.com",
  brandName: "Corner Deals",
  contactEmail: "shop@example.com",
  twilioAccountSid: "AC0123456789abcdef0123456789abcdef",
  twilioAuthToken: "tok3n-S3cret-9f8e7d6c5b4a3210zz",
  twilioFrom: "+15551234567",
  twilioMessagingServiceSid: "MG0123456789abcdef0123456789abcdef",
  twilioWhatsAppFrom: "+15551234567",
  sendRate: "2",
  smtpUrl: "smtp://mailer:pw@mail.example.com:587",
  mailFrom: "Bakery <news@example.com>",
  uploadQuotaMb: "10",
  quietHours: "20:00-08:00",
  maxPerDay: "3",
  allowedCountries: "US,CA",
  confirmationsPerHour: "100",
  pricePerSegment: "0.01",
  whatsappConfirmationTemplate: "HX0123456789abcdef0123456789abcdef",
  ownerSignup: "open",
  keywordReplies: "nearcast",
};
const good = (key: SettingKey) => GOOD[key] ?? "x";

/** A character in the middle of the value, or after it (where trimming would once have hidden it). */
const BAD: [string, (s: string) => string][] = [
  ["CR LF inside", (s) => `${s.slice(0, 4)}\r\nBcc: victim@example.com${s.slice(4)}`],
  ["LF at the end", (s) => `${s}\n`],
  ["a NUL", (s) => `${s.slice(0, 3)}\u0000${s.slice(3)}`],
  ["a tab", (s) => `${s.slice(0, 3)}\t${s.slice(3)}`],
  ["DEL", (s) => `${s}\u007f`],
  ["a C1 NEL", (s) => `${s.slice(0, 2)}\u0085${s.slice(2)}`],
  ["a Unicode line separator", (s) => `${s.slice(0, 2)}\u2028${s.slice(2)}`],
];

interface World extends ScenarioWorld {
  tokens: Record<"admin", string>;
}

function world(): World {
  const ctx = testContext();
  return { ctx, api: apiClient(ctx), tokens: { admin: sessionFor(ctx, insertUser(ctx, { role: "admin" })) } };
}

describe("PUT /api/settings", () => {
  const scenarios: ApiScenario<World>[] = SETTING_KEYS.flatMap((key) =>
    BAD.map(
      ([what, spoil]): ApiScenario<World> => ({
        name: `${key} with ${what}: 400 naming the key; nothing of the body saved`,
        as: "admin",
        method: "PUT",
        path: "/api/settings",
        json: { contactEmail: "valid@example.com", [key]: spoil(good(key)) },
        status: 400,
        expect: (body) => {
          expect(body.code).toBe("validation_failed");
          expect(Object.keys(body.fields)).toEqual([key]);
          expect(body.fields[key]).toMatch(ONE_LINE);
          expect(body.error).toBe(body.fields[key]);
        },
        after: (w) => expect(w.ctx.repos.settings.all()).toEqual({}),
      }),
    ),
  );
  scenarios.push({
    name: "the same values without the control characters are saved",
    as: "admin",
    method: "PUT",
    path: "/api/settings",
    json: { brandName: "Corner Deals", publicUrl: "https://deals.example.com" },
    status: 200,
    after: (w) => expect(w.ctx.repos.settings.all()).toEqual({ brandName: "Corner Deals", publicUrl: "https://deals.example.com" }),
  });
  runScenarios(scenarios, { world, done: (w) => w.ctx.close() });
});

describe("nearcast settings set", () => {
  const dirs = tempDataDirs("nearcast-settings-ctl");
  afterAll(dirs.removeAll);

  for (const key of ["brandName", "publicUrl", "mailFrom"] as const) {
    test(`${key} with CR LF: exit 2, one line naming the key, nothing saved`, () => {
      const dir = dirs.make();
      const run = nearcast(["settings", "set", key, `${good(key)}\r\nX-Injected: 1`], dir);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      const lines = run.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith(`nearcast: ${key}: `);
      expect(lines[0]!.slice(`nearcast: ${key}: `.length)).toMatch(ONE_LINE);
      withDataDir(dir, (ctx) => expect(ctx.repos.settings.all()).toEqual({}));
    });
  }
});

describe("environment variables", () => {
  for (const key of SETTING_KEYS) {
    test(`${SETTING_ENV[key]} with a line break stops the program with one line naming it`, () => {
      for (const value of [`${good(key).slice(0, 4)}\nX${good(key).slice(4)}`, `${good(key)}\r\n`]) {
        let error: unknown;
        try {
          loadConfig({ [SETTING_ENV[key]]: value });
        } catch (err) {
          error = err;
        }
        expect(error).toBeInstanceOf(ConfigError);
        const message = (error as Error).message;
        expect(message).toStartWith(SETTING_ENV[key]);
        expect(message).toContain("must be one line, without line breaks or other control characters");
        expect(message).not.toContain("\n");
        expect(message).not.toContain("\r");
      }
    });
  }

  test("other variables too (NEARCAST_ADMIN_EMAIL)", () => {
    expect(() => loadConfig({ NEARCAST_ADMIN_EMAIL: "boss@example.com\u0000x" })).toThrow(
      new ConfigError("NEARCAST_ADMIN_EMAIL must be one line, without line breaks or other control characters"),
    );
  });

  test("a command run with one exits 2 with that one line", () => {
    const run = nearcast(["settings", "get"], undefined, cliEnv({ NEARCAST_BRAND_NAME: "Corner\nDeals" }));
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split("\n")).toEqual(["nearcast: NEARCAST_BRAND_NAME must be one line, without line breaks or other control characters"]);
  });
});
