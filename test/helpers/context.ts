import { FakeClock } from "../../src/clock.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { type ContextOptions, createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";

/** A full context on an in-memory SQLite with the real migrations, a fake clock and a captured log. */
export function testContext(env: Record<string, string> = {}, config: Partial<Config> = {}, options: Pick<ContextOptions, "mailTls" | "settingsCheckEveryMs"> = {}) {
  const clock = new FakeClock();
  const logger = new MemoryLogger();
  // Tests that are not about the limits subscribe and register freely (the tests of the limits set them).
  const base = loadConfig({
    NEARCAST_DATA_DIR: "/nonexistent-test-dir",
    NEARCAST_SUBSCRIBE_LIMIT: "0",
    NEARCAST_REGISTER_LIMIT: "0",
    NEARCAST_REGISTER_GLOBAL_LIMIT: "0",
    // Owners who register may send at once; the tests of approval set NEARCAST_OWNER_SIGNUP=approval themselves.
    NEARCAST_OWNER_SIGNUP: "open",
    ...env,
  });
  const ctx = createContext({ ...base, ...config }, { dbPath: ":memory:", clock, logger, ...options });
  return Object.assign(ctx, { clock, logger });
}

export type TestContext = ReturnType<typeof testContext>;

/** The messenger's settings a server started with this environment would use (nothing saved in its database). */
export function messagingFromEnv(env: Record<string, string> = {}) {
  const ctx = testContext(env);
  try {
    return ctx.services.settings.messaging();
  } finally {
    ctx.close();
  }
}
