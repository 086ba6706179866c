import { ConfigError } from "./config.ts";
import type { AppContext } from "./context.ts";
import { type AppOptions, createApp } from "./http/app.ts";
import { DECLARED_BODY_CEILING } from "./http/middleware/body-limit.ts";

const STOP_GRACE_MS = 2000;

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** Serves the API and UI until stop() (the CLI calls it on SIGTERM/SIGINT). */
export function startServer(ctx: AppContext, web: AppOptions): RunningServer {
  const app = createApp(ctx, web);
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({
      port: ctx.config.port,
      hostname: ctx.config.host,
      // Each route caps its own body while it streams, and the app stops any chunked body past the largest route
      // limit (http/middleware/body-limit.ts). Bun's own cap refuses (bare 413, connection closed) only declared
      // lengths beyond any real photo: a 6-16 MB image still gets the route's 413 text from the app.
      maxRequestBodySize: DECLARED_BODY_CEILING,
      // Never Bun's development error page (it shows stack traces): anything escaping the app gets the one error shape.
      development: false,
      // Bun shares the port between processes unless told not to: a second `serve` must fail, not split traffic.
      reusePort: false,
      error(err) {
        ctx.logger.error(`unhandled: ${err.name}: ${err.message}`.replace(/\s+/g, " ").slice(0, 500));
        return Response.json({ error: "Something went wrong on our side. Please try again.", code: "internal" }, { status: 500 });
      },
      fetch: app.fetch,
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "EADDRINUSE" || /in use/i.test(String(err))) {
      throw new ConfigError(`port ${ctx.config.port} is already in use: choose another with --port or NEARCAST_PORT`);
    }
    if (code === "EACCES" || /permission/i.test(String(err))) {
      throw new ConfigError(`port ${ctx.config.port} needs more privileges: choose one above 1024 with --port or NEARCAST_PORT`);
    }
    throw err;
  }
  const url = `http://${ctx.config.host === "0.0.0.0" ? "localhost" : ctx.config.host}:${server.port}`;
  return {
    url,
    async stop() {
      // Requests in flight may finish, but idle keep-alive connections must not hold a shutdown up.
      await Promise.race([server.stop(), Bun.sleep(STOP_GRACE_MS)]);
      await server.stop(true);
    },
  };
}
