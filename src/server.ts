import type { AppContext } from "./context.ts";
import { createApp } from "./http/app.ts";
import { serveRoutes } from "./http/routes/subscription.ts";
import type { StaticAssets } from "./http/static.ts";

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** Serves the API and UI until stop() (the CLI calls it on SIGTERM/SIGINT). */
export function startServer(ctx: AppContext, assets: StaticAssets): RunningServer {
  const app = createApp(ctx, { assets });
  const server = Bun.serve({
    port: ctx.config.port,
    hostname: ctx.config.host,
    // Uploads (5 MB images) are the largest bodies; anything bigger is refused before it is read.
    maxRequestBodySize: 6 * 1024 * 1024,
    // The public subscribe POST (the hot path) is answered by Bun's router without Hono, with the same checks.
    routes: serveRoutes(ctx),
    fetch: (req, srv) => app.fetch(req, srv),
  });
  // The executable starts with JavaScriptCore's tier-up thresholds raised (scripts/build.ts --compile-jit-policy), so
  // run-once start-up code (module set-up, migrations) is not JIT-compiled; from here on requests get the normal JIT.
  Bun.unsafe.setJITPolicy(1);
  const url = `http://${ctx.config.host === "0.0.0.0" ? "localhost" : ctx.config.host}:${server.port}`;
  return {
    url,
    async stop() {
      await server.stop();
    },
  };
}
