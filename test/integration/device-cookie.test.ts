// Issue 21, item 5, over HTTP: a browser that signed in to an account before (its device cookie) is never held by the
// per-address throttle because other accounts failed behind the same address (the shop's NAT); a newcomer there waits
// seconds, not minutes; a cookie for one account gives no relief for another, and a forged one none at all.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { DEVICE_COOKIE, DEVICE_COOKIE_TTL_S } from "../../src/services/device-cookies.ts";
import { apiClient, type ApiResponse, PASSWORD } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { type ApiScenario, runScenarios, type ScenarioRest, type ScenarioWorld } from "../helpers/scenario.ts";

// argon2 is deliberately slow, and the stuffing is 30 real logins.
setDefaultTimeout(60_000);

const NAT = "198.51.100.77";
const HOME = "203.0.113.5";
const REGULAR = "regular@example.com";
const NEWCOMER = "newcomer@example.com";

interface World extends ScenarioWorld {
  /** The device cookie the regular's browser got when signing in at home. */
  device: string;
}

/** The device cookie a login answer set, or undefined. */
function deviceCookieOf(res: ApiResponse): string | undefined {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
  return line?.slice(DEVICE_COOKIE.length + 1).split(";")[0];
}

/** A browser's headers: the XSRF pair, and the device cookie when it has one. */
const browser = (device?: string) => ({ cookie: `XSRF-TOKEN=t0k3n${device ? `; ${DEVICE_COOKIE}=${device}` : ""}`, "x-xsrf-token": "t0k3n" });

const login = (w: World, email: string, password: string, ip: string, device?: string) =>
  w.api.call("POST", "/api/auth/Login", { json: { email, password }, ip, noXsrf: true, headers: browser(device) });

/**
 * The regular signed in at home last week; today an attacker behind the shop's NAT tries 30 other accounts, waiting
 * out each 429 (20 free, then 1, 2, 4, 5, 5... s): the NAT's next try must wait 5 s.
 */
async function shop(): Promise<World> {
  const ctx = testContext({ NEARCAST_OWNER_SIGNUP: "open" });
  const w = { ctx, api: apiClient(ctx), device: "" };
  for (const email of [REGULAR, NEWCOMER]) await ctx.services.auth.createUser({ firstName: "Ada", lastName: "Baker", email, password: PASSWORD });
  const home = await login(w, REGULAR, PASSWORD, HOME);
  expect(home.status).toBe(200);
  w.device = deviceCookieOf(home)!;
  expect(w.device).toBeDefined();
  ctx.clock.advance(7 * 24 * 3600_000);
  const waits: number[] = [];
  for (let i = 0; i < 30; ) {
    const res = await login(w, `victim${i}@example.com`, "Summer2026!", NAT);
    if (res.status === 429) {
      waits.push(Number(res.headers.get("retry-after")));
      ctx.clock.advance(waits.at(-1)! * 1000);
      continue;
    }
    expect(res.status).toBe(401);
    i++;
  }
  expect(waits).toEqual([1, 2, 4, 5, 5, 5, 5, 5, 5]);
  return w;
}

const held = (seconds: number) => (body: any, _w: World, res: ApiResponse) => {
  expect(body.code).toBe("too_many_requests");
  expect(body.error).toBe(`Too many attempts. Please wait ${seconds} second${seconds === 1 ? "" : "s"} and try again.`);
  expect(res.headers.get("retry-after")).toBe(String(seconds));
  expect(deviceCookieOf(res)).toBeUndefined();
};

/** A login behind the shop's NAT by a browser with `headers`, as `email` with `password`. */
function natLogin(name: string, email: string, password: string, headers: ApiScenario<World>["headers"], status: number, rest: ScenarioRest<World> = {}): ApiScenario<World> {
  return { name, method: "POST", path: "/api/auth/Login", ip: NAT, noXsrf: true, headers, json: { email, password }, status, ...rest };
}

const scenarios: ApiScenario<World>[] = [
  natLogin("the regular's browser (device cookie) signs in behind the NAT at once, and gets the cookie renewed", REGULAR, PASSWORD, (w) => browser(w.device), 200, {
    expect: (body, w, res) => {
      expect(body.user.email).toBe(REGULAR);
      expect(JSON.stringify(body)).not.toContain(w.device);
      const renewed = deviceCookieOf(res)!;
      expect(renewed).toMatch(/^\d+\.\d+\.[A-Za-z0-9_-]{43}$/);
      expect(w.ctx.services.deviceCookies.accountOf(renewed)).toBe(body.user.id);
      const line = res.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`))!;
      for (const attribute of ["HttpOnly", "SameSite=Lax", "Path=/api/auth/Login", `Max-Age=${DEVICE_COOKIE_TTL_S}`]) expect(line).toContain(attribute);
      expect(line).not.toContain("Secure"); // plain http here; behind HTTPS it is Secure (isHttps)
    },
  }),
  natLogin("the same browser with a wrong password is heard (401), not held: the pair throttle is what counts its guesses", REGULAR, "typo", (w) => browser(w.device), 401),
  natLogin("the regular without the cookie (another browser) waits like anyone there: seconds", REGULAR, PASSWORD, browser(), 429, { expect: held(5) }),
  natLogin("a newcomer behind the NAT waits 5 seconds, then gets in", NEWCOMER, PASSWORD, browser(), 429, {
    expect: held(5),
    after: async (w) => {
      w.ctx.clock.advance(5000);
      expect((await login(w, NEWCOMER, PASSWORD, NAT)).status).toBe(200);
    },
  }),
  natLogin("the regular's cookie gives no relief for another account", NEWCOMER, PASSWORD, (w) => browser(w.device), 429, { expect: held(5) }),
  natLogin("a forged cookie (the regular's id, another signature) gives no relief", REGULAR, PASSWORD, (w) => browser(w.device.replace(/\.[^.]+$/, `.${"A".repeat(43)}`)), 429, { expect: held(5) }),
];

describe("device cookies at POST /api/auth/Login behind a shop's NAT", () => {
  runScenarios(scenarios, { world: shop, done: (w) => w.ctx.close() });
});

test("a failed login sets no device cookie", async () => {
  const ctx = testContext({ NEARCAST_OWNER_SIGNUP: "open" });
  try {
    await ctx.services.auth.createUser({ firstName: "Ada", lastName: "Baker", email: REGULAR, password: PASSWORD });
    const w = { ctx, api: apiClient(ctx), device: "" };
    const res = await login(w, REGULAR, "wrong password", HOME);
    expect(res.status).toBe(401);
    expect(deviceCookieOf(res)).toBeUndefined();
  } finally {
    ctx.close();
  }
});
