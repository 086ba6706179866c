// The first run belongs to whoever started the server (issue 21, item 3): POST /api/setup creates the first admin only
// with a code `nearcast serve` printed (services/setup-code.ts), stored hashed, spent by the admin it creates, and
// dead once any admin exists; wrong codes are limited per address; the public URL the setup screen sends is saved.
// The built executable's side (the printed line, several serve processes): test/smoke/setup-link.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { users } from "../../src/db/schema.ts";
import { hashToken } from "../../src/lib/tokens.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { SETUP_CODE_MISSING, SETUP_CODE_TRIES, SETUP_CODE_WRONG, SETUP_CODES_KEPT, SETUP_CODES_KEY } from "../../src/services/setup-code.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { type ApiScenario, request, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { closing } from "../helpers/worlds.ts";

// argon2 is deliberately slow; a busy box can take seconds per hash.
setDefaultTimeout(30_000);

const SETUP = "/api/setup";
const ADMIN = { firstName: "Grace", lastName: "Hopper", email: "grace@shop.example", password: "s3cret-pass" };
const ALREADY_DONE = "Setup is already done: log in, or ask your admin.";

interface World extends ScenarioWorld {
  /** The code this server "printed" at start. */
  code: string;
}

function world(env: Record<string, string> = {}): World {
  const ctx = testContext(env);
  const code = ctx.services.setupCode.issue();
  if (!code) throw new Error("setup should be due on a fresh server");
  return { ctx, api: apiClient(ctx), code };
}

const userRows = (w: World) => w.ctx.db.select().from(users).all();
const storedCodes = (w: World) => w.ctx.repos.settings.get(SETUP_CODES_KEY);
const setupNeeded = async (w: World) => (await w.api.get("/api/site")).body.setupNeeded;

const setup = request<World>(undefined, "POST", SETUP);

describe("POST /api/setup and its code", () => {
  runScenarios<World>(
    [
      setup("the right code: 201, the admin made and logged in; every stored code is deleted with it", 201, {
        json: (w) => ({ ...ADMIN, code: w.code }), expectBody: { user: { email: ADMIN.email, role: "admin" } },
        after: async (w) => {
          expect(userRows(w).map((u) => [u.email, u.role])).toEqual([[ADMIN.email, "admin"]]);
          expect(storedCodes(w)).toBeUndefined();
          expect(await setupNeeded(w)).toBe(false);
        },
      }),
      setup("no code: 403 saying where the link is; nothing created", 403, {
        json: ADMIN, expectBody: { code: "setup_code_invalid", error: SETUP_CODE_MISSING }, fields: { code: SETUP_CODE_MISSING },
        after: async (w) => {
          expect(SETUP_CODE_MISSING).toContain("printed in the terminal where nearcast serve runs, and in its log (journalctl -u nearcast)");
          expect(userRows(w)).toEqual([]);
          expect(await setupNeeded(w)).toBe(true);
        },
      }),
      setup("an empty or blank code: 403, nothing created", 403, { json: { ...ADMIN, code: "   " }, fields: { code: SETUP_CODE_MISSING }, after: (w) => expect(userRows(w)).toEqual([]) }),
      setup("a wrong code: 403, nothing created, the right one still works", 403, {
        json: (w) => ({ ...ADMIN, code: `${w.code.slice(0, -1)}${w.code.endsWith("A") ? "B" : "A"}` }),
        expectBody: { code: "setup_code_invalid", error: SETUP_CODE_WRONG },
        fields: { code: SETUP_CODE_WRONG },
        after: async (w) => {
          expect(userRows(w)).toEqual([]);
          expect((await w.api.post(SETUP, { ...ADMIN, code: w.code })).status).toBe(201);
        },
      }),
      setup("a code that is not text: 403, nothing created", 403, { json: { ...ADMIN, code: 12345 }, fields: { code: SETUP_CODE_MISSING }, after: (w) => expect(userRows(w)).toEqual([]) }),
      setup("the code's hash is what a wrong code is compared with: the code itself is never stored", 403, {
        json: (w) => ({ ...ADMIN, code: hashToken(w.code) }), fields: { code: SETUP_CODE_WRONG },
        after: (w) => {
          expect(JSON.parse(storedCodes(w)!)).toEqual([hashToken(w.code)]);
          expect(storedCodes(w)).not.toContain(w.code);
        },
      }),
      setup("the right code with a bad field: 400 naming it, nothing created, the code still valid", 400, {
        json: (w) => ({ ...ADMIN, email: "nope", code: w.code }),
        fields: { email: "Please enter a valid email address" },
        after: (w) => expect(JSON.parse(storedCodes(w)!)).toEqual([hashToken(w.code)]),
      }),
      setup("the setup screen's address is saved as the public URL, with the admin", 201, {
        json: (w) => ({ ...ADMIN, code: w.code, publicUrl: "https://deals.example.com/" }),
        after: (w) => {
          expect(w.ctx.services.settings.savedPublicUrl()).toBe("https://deals.example.com");
          expect(w.ctx.services.settings.view(OPERATOR).publicUrl).toMatchObject({ value: "https://deals.example.com", source: "saved" });
        },
      }),
      setup("a public URL with a line break: 400 naming publicUrl; no admin, no URL saved", 400, {
        json: (w) => ({ ...ADMIN, code: w.code, publicUrl: "https://deals.example.com/\r\nX-Evil: 1" }), expect: (body) => expect(Object.keys(body.fields)).toEqual(["publicUrl"]),
        after: (w) => {
          expect(userRows(w)).toEqual([]);
          expect(w.ctx.services.settings.savedPublicUrl()).toBeNull();
        },
      }),
      setup("a public URL that is not http(s): 400 naming publicUrl, nothing created", 400, {
        json: (w) => ({ ...ADMIN, code: w.code, publicUrl: "javascript:alert(1)" }),
        fields: { publicUrl: "Public URL must be an http:// or https:// address, without a query or fragment" },
        after: (w) => expect(userRows(w)).toEqual([]),
      }),
      setup("with NEARCAST_PUBLIC_URL set, the body's public URL is not saved (the variable wins anyway)", 201, {
        env: { NEARCAST_PUBLIC_URL: "https://env.example.org" }, json: (w) => ({ ...ADMIN, code: w.code, publicUrl: "http://192.168.1.20:3000" }),
        after: (w) => {
          expect(w.ctx.repos.settings.get("publicUrl")).toBeUndefined();
          expect(w.ctx.services.settings.savedPublicUrl()).toBe("https://env.example.org");
        },
      }),
      setup("reuse after the admin exists: 409, no second admin", 409, {
        before: async (w) => expect((await w.api.post(SETUP, { ...ADMIN, code: w.code })).status).toBe(201),
        json: (w) => ({ ...ADMIN, email: "mallory@example.com", code: w.code }),
        expectBody: { code: "conflict", error: ALREADY_DONE },
        after: (w) => expect(userRows(w).map((u) => u.email)).toEqual([ADMIN.email]),
      }),
      setup("an admin made by the CLI kills the code: 409, and the next serve start prints none and deletes it", 409, {
        before: (w) => w.ctx.services.auth.createUser({ ...ADMIN, email: "cli@example.com" }, "admin"), json: (w) => ({ ...ADMIN, code: w.code }),
        after: (w) => {
          expect(userRows(w).map((u) => u.email)).toEqual(["cli@example.com"]);
          expect(w.ctx.services.setupCode.issue()).toBeNull();
          expect(storedCodes(w)).toBeUndefined();
        },
      }),
    ],
    { world: (s) => world(s.env), done: (w) => w.ctx.close(), unchanged: (w) => userRows(w) },
  );
});

describe("codes of several serve starts on one data dir", () => {
  test("each start adds a code; any of the newest few works (a standby server does not kill the first's link)", async () =>
    closing(world(), async (w) => {
      const codes = [w.code];
      for (let i = 1; i <= SETUP_CODES_KEPT; i++) codes.push(w.ctx.services.setupCode.issue()!);
      expect(new Set(codes).size).toBe(codes.length);
      expect(JSON.parse(storedCodes(w)!)).toEqual(codes.slice(1).map(hashToken));
      // The oldest fell off; the others all still work.
      expect((await w.api.post(SETUP, { ...ADMIN, code: codes[0] })).status).toBe(403);
      expect((await w.api.post(SETUP, { ...ADMIN, code: codes[1] })).status).toBe(201);
      expect((await w.api.post(SETUP, { ...ADMIN, email: "second@example.com", code: codes[2] })).status).toBe(409);
      expect(storedCodes(w)).toBeUndefined();
    }));
});

describe("guessing", () => {
  test(`after ${SETUP_CODE_TRIES} wrong codes an address waits (429 with Retry-After), even with the right code; another address does not`, async () =>
    closing(world(), async (w) => {
      for (let i = 0; i < SETUP_CODE_TRIES; i++) {
        expect((await w.api.post(SETUP, { ...ADMIN, code: `guess-${i}` }, { ip: "198.51.100.7" })).status).toBe(403);
      }
      const held = await w.api.post(SETUP, { ...ADMIN, code: w.code }, { ip: "198.51.100.7" });
      expect(held.status).toBe(429);
      expect(held.body).toEqual({ code: "too_many_requests", error: "Too many wrong setup codes. Please wait 15 minutes and try again." });
      expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(userRows(w)).toEqual([]);
      // A missing code is not a guess: it does not count.
      expect((await w.api.post(SETUP, ADMIN, { ip: "198.51.100.8" })).status).toBe(403);
      expect((await w.api.post(SETUP, { ...ADMIN, code: w.code }, { ip: "198.51.100.8" })).status).toBe(201);
      // Nothing about codes reaches the log.
      expect(w.ctx.logger.lines.join("\n")).not.toContain(w.code);
    }));
});

describe("serve's setup line", () => {
  const lineOf = (env: Record<string, string>, serverUrl: string, alsoAt: string[] = []) => {
    const ctx = testContext(env);
    try {
      const lines: string[] = [];
      ctx.services.setupCode.announce(serverUrl, (l) => lines.push(l), alsoAt);
      return { lines, stored: ctx.repos.settings.get(SETUP_CODES_KEY) };
    } finally {
      ctx.close();
    }
  };
  const LINE = /^First run: open (\S+)\/setup\?code=([A-Za-z0-9_-]{43}) to create this server's admin account \(the link works until an admin exists\)$/;

  test("bound to every address: http://localhost:PORT; the code printed is the one stored (hashed)", () => {
    const { lines, stored } = lineOf({ NEARCAST_HOST: "0.0.0.0" }, "http://localhost:4567");
    expect(lines).toHaveLength(1);
    const [, base, code] = LINE.exec(lines[0]!)!;
    expect(base).toBe("http://localhost:4567");
    expect(JSON.parse(stored!)).toEqual([hashToken(code!)]);
  });

  test("bound to one address: that address; IPv6 in brackets; loopback is localhost", () => {
    expect(LINE.exec(lineOf({ NEARCAST_HOST: "192.168.1.20" }, "http://192.168.1.20:3000").lines[0]!)?.[1]).toBe("http://192.168.1.20:3000");
    expect(LINE.exec(lineOf({ NEARCAST_HOST: "fd00::5" }, "http://fd00::5:3000").lines[0]!)?.[1]).toBe("http://[fd00::5]:3000");
    expect(LINE.exec(lineOf({ NEARCAST_HOST: "127.0.0.1" }, "http://127.0.0.1:3000").lines[0]!)?.[1]).toBe("http://localhost:3000");
  });

  test("on the public URL when one is set", () => {
    expect(LINE.exec(lineOf({ NEARCAST_PUBLIC_URL: "https://deals.example.com" }, "http://localhost:3000").lines[0]!)?.[1]).toBe("https://deals.example.com");
  });

  test("the machine's other addresses (issue 23): the same link at each, on a second line", () => {
    const { lines } = lineOf({ NEARCAST_HOST: "0.0.0.0" }, "http://localhost:3000", ["http://192.0.2.2:3000", "http://[fd00::2]:3000"]);
    expect(lines).toHaveLength(2);
    const code = LINE.exec(lines[0]!)![2]!;
    expect(lines[1]).toBe(`First run, from another device on this network: http://192.0.2.2:3000/setup?code=${code} or http://[fd00::2]:3000/setup?code=${code}`);
    // With a public URL, that is the one link.
    expect(lineOf({ NEARCAST_PUBLIC_URL: "https://deals.example.com" }, "http://localhost:3000", ["http://192.0.2.2:3000"]).lines).toHaveLength(1);
  });

  test("nothing while setup is not due (NEARCAST_ADMIN_EMAIL names the admin)", () => {
    expect(lineOf({ NEARCAST_ADMIN_EMAIL: "boss@example.com" }, "http://localhost:3000")).toEqual({ lines: [], stored: undefined });
  });
});
