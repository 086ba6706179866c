import type { AppContext } from "../../src/context.ts";
import { createApp } from "../../src/http/app.ts";
import type { ServerEnv } from "../../src/http/types.ts";

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  ip?: string;
  headers?: Record<string, string>;
  /** Raw body; when absent and json is given, json is sent as application/json. */
  body?: BodyInit;
  json?: unknown;
  /** Leave out the XSRF cookie and header (to test the check itself). */
  noXsrf?: boolean;
}

const XSRF = "test-xsrf-token";

/** Status, body (parsed JSON; the text when it is not JSON; null when empty) and headers of a response. */
export async function answerOf<T = any>(res: Response): Promise<ApiResponse<T>> {
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** Drives the Hono app in-process through app.request(), the way the browser client would. */
export function apiClient(ctx: AppContext) {
  const app = createApp(ctx);
  async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (!opts.noXsrf) {
      headers.cookie = `XSRF-TOKEN=${XSRF}`;
      headers["x-xsrf-token"] = XSRF;
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body = opts.body;
    if (body === undefined && opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers["content-type"] ??= "application/json";
    }
    const env: ServerEnv = { requestIP: () => ({ address: opts.ip ?? "203.0.113.1" }) };
    return answerOf<T>(await app.request(path, { method, headers, body }, env));
  }
  return {
    app,
    call,
    get: <T = any>(path: string, opts?: CallOptions) => call<T>("GET", path, opts),
    post: <T = any>(path: string, json?: unknown, opts?: CallOptions) => call<T>("POST", path, { json, ...opts }),
    put: <T = any>(path: string, json?: unknown, opts?: CallOptions) => call<T>("PUT", path, { json, ...opts }),
    del: <T = any>(path: string, opts?: CallOptions) => call<T>("DELETE", path, opts),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

/** The password every account of the tests' cast signs up with, and the address their admin uses. */
export const PASSWORD = "correct horse";
export const ADMIN_EMAIL = "boss@example.com";
/** The public URL the tests' site is saved on (test/helpers/server.ts starts its server on it too). */
export const PUBLIC_URL = "https://deals.example.com";

let seq = 0;
/** Registers and logs in a fresh user; role admin when the email is the context's admin email. */
export async function signUp(api: ApiClient, overrides: Partial<{ email: string; password: string; firstName: string; lastName: string }> = {}) {
  seq += 1;
  const user = {
    firstName: "Ada",
    lastName: "Baker",
    email: `owner${seq}@example.com`,
    password: PASSWORD,
    ...overrides,
  };
  const reg = await api.post("/api/auth/Register", user);
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await api.post("/api/auth/Login", { email: user.email, password: user.password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { ...user, token: login.body.token as string, id: login.body.user.id as number };
}
