// GET /api/health checks the database and the dispatcher (503 when either is broken); NEARCAST_LOG_LEVEL and the
// access log (NEARCAST_ACCESS_LOG) decide what serve writes.
// Not the scenario runner: health is read against dispatchers in given states, and logs a console logger wrote.
import { afterEach, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import type { Dispatcher } from "../../src/dispatch/dispatcher.ts";
import { emptyStats } from "../../src/dispatch/stats.ts";
import { createConsoleLogger } from "../../src/lib/logger.ts";
import { createHealthService, DISPATCHER_STALL_MS } from "../../src/services/health.ts";
import { VERSION } from "../../src/version.ts";
import { apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";

let ctx: TestContext;
afterEach(() => {
  try {
    ctx.close();
  } catch {
    // closed by the test
  }
});

/** A dispatcher as the health check sees it. */
const seen = (state: Dispatcher["state"], lastTickAt: number | null) => ({ state, stats: { ...emptyStats(), lastTickAt } }) as unknown as Dispatcher;

describe("GET /api/health", () => {
  test("200 with the version, the database and a dispatcher not started (this context never starts one)", async () => {
    ctx = testContext();
    const res = await apiClient(ctx).get("/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", version: VERSION, database: "ok", dispatcher: { state: "not started", lastTickAt: null } });
  });

  test("a running dispatcher whose loop went round lately is ok, as is one standing by; a loop silent for 30 s is a 503", async () => {
    ctx = testContext();
    const now = ctx.clock.now().getTime();
    const withDispatcher = (d: Dispatcher) => {
      ctx.services.health = createHealthService({ repos: ctx.repos, clock: ctx.clock, dispatcher: () => d });
      return apiClient(ctx).get("/api/health");
    };
    const running = await withDispatcher(seen("dispatching", now - 400));
    expect(running.status).toBe(200);
    expect(running.body.dispatcher).toEqual({ state: "running", lastTickAt: new Date(now - 400).toISOString() });
    expect((await withDispatcher(seen("standby", null))).body).toMatchObject({ status: "ok", dispatcher: { state: "standby" } });
    const stalled = await withDispatcher(seen("dispatching", now - DISPATCHER_STALL_MS - 1));
    expect(stalled.status).toBe(503);
    expect(stalled.body).toMatchObject({ status: "error", database: "ok", dispatcher: { state: "stalled" } });
    const stopped = await withDispatcher(seen("stopped", now - 1000));
    expect(stopped.status).toBe(503);
  });

  test("a database that cannot answer: 503, status error, database error (no SQLite message in the body)", async () => {
    ctx = testContext();
    const api = apiClient(ctx);
    ctx.db.$client.close();
    const res = await api.get("/api/health");
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: "error", version: VERSION, database: "error", dispatcher: { state: "not started", lastTickAt: null } });
  });
});

describe("logs", () => {
  test("the access log: method, path without its query, status and ms, at info; off by default", async () => {
    ctx = testContext({ NEARCAST_ACCESS_LOG: "on" });
    const api = apiClient(ctx);
    await api.get("/api/health?token=s3cret-reset-token");
    await api.get("/api/nope");
    const lines = ctx.logger.lines.filter((l) => /^info (GET|POST) /.test(l));
    expect(lines[0]).toMatch(/^info GET \/api\/health 200 \d+\.\dms$/);
    expect(lines[1]).toMatch(/^info GET \/api\/nope 404 \d+\.\dms$/);
    expect(ctx.logger.lines.join("\n")).not.toContain("s3cret");
    ctx.close();
    ctx = testContext();
    await apiClient(ctx).get("/api/health");
    expect(ctx.logger.lines.filter((l) => l.includes("/api/health"))).toEqual([]);
  });

  test("NEARCAST_LOG_LEVEL: lines below the level are not written; a bad level names the setting", () => {
    const written: string[] = [];
    const original = console.error;
    console.error = (m: string) => void written.push(m);
    try {
      const logger = createConsoleLogger(loadConfig({ NEARCAST_LOG_LEVEL: "warn" }).logLevel);
      logger.debug("d");
      logger.info("i");
      logger.warn("w");
      logger.error("e");
      createConsoleLogger(loadConfig({}).logLevel).info("default");
      createConsoleLogger(loadConfig({ NEARCAST_LOG_LEVEL: "DEBUG" }).logLevel).debug("deep");
    } finally {
      console.error = original;
    }
    expect(written.map((l) => l.replace(/^\S+ /, ""))).toEqual(["warn  w", "error e", "info  default", "debug deep"]);
    expect(() => loadConfig({ NEARCAST_LOG_LEVEL: "loud" })).toThrow('NEARCAST_LOG_LEVEL must be one of debug, info, warn, error (got "loud")');
  });
});
