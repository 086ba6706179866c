// One way to write an API table, after PocketBase's tests.ApiScenario: each scenario names its request (who calls,
// method, path, body, headers), the answer it expects (status, a fragment of the body, the exact field messages)
// and the side effects (a check on the world afterwards: rows stored or not). The runner adds what holds for every
// call: the one error shape, nothing changed by a refused request or a read, and no error logged.
import { expect, test } from "bun:test";
import type { ApiClient, ApiResponse } from "./api.ts";
import type { TestContext } from "./context.ts";

/** What a scenario runs against. `tokens` maps each `as` of the table to its bearer token (none for "anon"). */
export interface ScenarioWorld {
  ctx: TestContext;
  api: ApiClient;
  tokens?: Record<string, string | undefined>;
}

/** A JSON body, or a fragment of one. */
export type Json = null | boolean | number | string | readonly unknown[] | { readonly [key: string]: unknown };

/** A value, or a function of the world for what only exists once it is built (ids, tokens, file names). */
export type Lazy<T, W> = T | ((w: W) => T);

export interface ApiScenario<W extends ScenarioWorld> {
  name: string;
  /** Extra environment for a world made per scenario (e.g. NEARCAST_ENV=development). */
  env?: Record<string, string>;
  /** Rows this scenario needs beyond the world's own. */
  before?: (w: W) => unknown;

  /** Who calls: a key of the world's tokens; it also starts the test's title. */
  as?: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: Lazy<string, W>;
  /** Sent as application/json. */
  json?: Lazy<Json, W>;
  /** Sent as is, with `headers` (malformed JSON, other content types, a form naming the world's ids). */
  raw?: Lazy<string, W>;
  /** A function of the world for what only exists once it is built (a cookie a login set). */
  headers?: Lazy<Record<string, string>, W>;
  /** A bearer token other than the one `as` names. */
  token?: Lazy<string | undefined, W>;
  ip?: string;
  /** Leave out the XSRF cookie and header. */
  noXsrf?: boolean;

  status: number;
  /** A fragment of the answer (toMatchObject); an array or a text must be equal. */
  expectBody?: Lazy<Json, W>;
  /** Keys a refusal carries beyond the one shape, by design (a used coupon's 409 `redeemedAt`). */
  errorExtras?: string[];
  /** The exact per-field messages of a refusal (the whole object). */
  fields?: Record<string, string>;
  /** Further checks on the answer. */
  expect?: (body: any, w: W, res: ApiResponse) => void;
  /** What must be stored afterwards; `before` is the world's `unchanged` snapshot taken before the call. */
  after?: (w: W, res: ApiResponse, before: any) => unknown;
}

export interface ScenarioSetup<W extends ScenarioWorld> {
  /** The world a scenario runs in: made fresh, or reset and handed back. */
  world: (s: ApiScenario<W>) => W | Promise<W>;
  /** What a refused request (4xx) or a read (GET) must leave as it was. */
  unchanged?: (w: W) => unknown;
  /** After each scenario (close a world made for it). */
  done?: (w: W) => void;
}

/** What a row of a table says beyond its request: the answer and the checks (and any request option: body, headers). */
export type ScenarioRest<W extends ScenarioWorld> = Omit<ApiScenario<W>, "name" | "as" | "method" | "path" | "status">;

/** One request that several rows of a table share (who calls, or undefined for no one; method; path): each row then names only what differs. */
export function request<W extends ScenarioWorld>(as: string | undefined, method: ApiScenario<W>["method"], path: Lazy<string, W>) {
  return (name: string, status: number, rest: ScenarioRest<W> = {}): ApiScenario<W> => ({ name, as, method, path, status, ...rest });
}

const lazy = <T, W>(v: Lazy<T, W>, w: W): T => (typeof v === "function" ? (v as (w: W) => T)(w) : v);
const titleOf = (s: Pick<ApiScenario<ScenarioWorld>, "as" | "method" | "name">) => (s.as ? `${s.method} ${s.as}: ${s.name}` : s.name);

/** A bun test per scenario (and one that the titles are unique). */
export function runScenarios<W extends ScenarioWorld>(scenarios: ApiScenario<W>[], setup: ScenarioSetup<W>): void {
  test("every scenario has a unique name", () => {
    const titles = scenarios.map(titleOf);
    expect(titles.filter((t, i) => titles.indexOf(t) !== i)).toEqual([]);
  });
  for (const s of scenarios) test(titleOf(s), () => runScenario(s, setup));
}

async function runScenario<W extends ScenarioWorld>(s: ApiScenario<W>, setup: ScenarioSetup<W>): Promise<void> {
  const w = await setup.world(s);
  try {
    await s.before?.(w);
    const before = setup.unchanged?.(w);
    const res = await w.api.call(s.method, lazy(s.path, w), {
      token: s.token !== undefined ? lazy(s.token, w) : s.as ? w.tokens?.[s.as] : undefined,
      ip: s.ip,
      headers: s.headers === undefined ? undefined : lazy(s.headers, w),
      noXsrf: s.noXsrf,
      ...(s.raw !== undefined ? { body: lazy(s.raw, w) } : s.json !== undefined ? { json: lazy(s.json, w) } : {}),
    });
    if (res.status !== s.status) throw new Error(`expected ${s.status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    if (s.expectBody !== undefined) {
      const want = lazy(s.expectBody, w);
      // An array, or a text answer (a CSV, a page), must be equal.
      if (Array.isArray(want) || typeof want !== "object" || want === null) expect(res.body).toEqual(want);
      else expect(res.body).toMatchObject(want as object);
    }
    if (res.status >= 400) {
      // The one error shape: {error, code, fields?} and nothing else.
      expect(Object.keys(res.body).filter((k) => !["error", "code", "fields", ...(s.errorExtras ?? [])].includes(k))).toEqual([]);
      expect(typeof res.body.error).toBe("string");
      expect(typeof res.body.code).toBe("string");
    }
    if (s.fields !== undefined) expect(res.body.fields).toEqual(s.fields);
    if (setup.unchanged && (res.status >= 400 || s.method === "GET")) expect(setup.unchanged(w)).toEqual(before);
    s.expect?.(res.body, w, res);
    await s.after?.(w, res, before);
    expect(w.ctx.logger.lines.filter((l) => l.startsWith("error"))).toEqual([]);
  } finally {
    setup.done?.(w);
  }
}
