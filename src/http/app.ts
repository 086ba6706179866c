import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { except } from "hono/combine";
import type { AppContext } from "../context.ts";
import { PayloadTooLargeError } from "../errors.ts";
import { errorJson, onError } from "./errors.ts";
import { resolveUser } from "./middleware/auth.ts";
import { securityHeaders } from "./middleware/security-headers.ts";
import { xsrf } from "./middleware/xsrf.ts";
import { authRoutes } from "./routes/auth.ts";
import { BROADCAST_UPLOAD_PATHS, broadcastRoutes } from "./routes/broadcast.ts";
import { businessRoutes, UPLOAD_PATHS } from "./routes/business.ts";
import { businessMediaRoutes } from "./routes/business-media.ts";
import { businessTypeRoutes } from "./routes/businesstype.ts";
import { customerRoutes } from "./routes/customer.ts";
import { customerMessageRoutes } from "./routes/customer-messages.ts";
import { healthRoutes } from "./routes/health.ts";
import { subscriptionRoutes } from "./routes/subscription.ts";
import { uploadFileRoutes } from "./routes/uploads.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { JSON_BODY_LIMIT } from "./request.ts";
import { type StaticAssets, serveAsset } from "./static.ts";
import type { AppEnv } from "./types.ts";

export { JSON_BODY_LIMIT };

export interface AppOptions {
  /** The embedded UI bundle; absent in API tests. */
  assets?: StaticAssets;
}

export function createApp(ctx: AppContext, options: AppOptions = {}) {
  const app = new Hono<AppEnv>();
  app.onError(onError);
  app.use("*", async (c, next) => {
    c.set("ctx", ctx);
    await next();
  });
  // Twilio's webhooks, ahead of the browser middleware (security headers, XSRF cookie, session): machine-to-machine,
  // authenticated by X-Twilio-Signature, with their own body cap (routes/webhooks.ts).
  app.route("/api/webhooks/twilio", webhookRoutes);
  // The public subscribe endpoint does the browser middleware's checks itself (XSRF, body cap, security headers),
  // with the same functions, so that Bun.serve can answer it without Hono (routes/subscription.ts, server.ts).
  app.route("/api/subscription", subscriptionRoutes);
  app.use("*", securityHeaders);
  app.use("*", xsrf);
  app.use(
    "/api/*",
    // The image uploads cap their own (5 MB) bodies while streaming them.
    except([...UPLOAD_PATHS, ...BROADCAST_UPLOAD_PATHS], bodyLimit({
      maxSize: JSON_BODY_LIMIT,
      onError: () => {
        throw new PayloadTooLargeError();
      },
    })),
  );
  app.use("/api/*", resolveUser);

  app.route("/api/health", healthRoutes);
  app.route("/api/auth", authRoutes);
  app.route("/api/businesstype", businessTypeRoutes);
  app.route("/api/customer", customerRoutes);
  app.route("/api/customer", customerMessageRoutes);
  app.route("/api/business", businessRoutes);
  app.route("/api/business", businessMediaRoutes);
  app.route("/api/business", broadcastRoutes);

  app.all("/api/*", (c) => errorJson(c, 404, "not_found", "No such API endpoint."));
  app.route("/uploads", uploadFileRoutes);

  const assets = options.assets ?? {};
  app.on(["GET", "HEAD"], "*", (c) => {
    const asset = assets[c.req.path];
    if (asset) return serveAsset(c, asset);
    // Client-side routes (and unknown paths, which the UI sends home) get the app shell.
    const shell = assets["/index.html"];
    if (shell && !/\.[a-z0-9]{1,5}$/i.test(c.req.path)) return serveAsset(c, shell);
    return errorJson(c, 404, "not_found", "Not found.");
  });
  app.all("*", (c) => errorJson(c, 405, "method_not_allowed", "Method not allowed."));
  return app;
}

export type App = ReturnType<typeof createApp>;
