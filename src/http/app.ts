import { Hono } from "hono";
import type { AppContext } from "../context.ts";
import { errorJson, onError } from "./errors.ts";
import { resolveUser } from "./middleware/auth.ts";
import { bodyBackstop, smallBody } from "./middleware/body-limit.ts";
import { diskSpaceGuard } from "./middleware/disk-space.ts";
import { securityHeaders } from "./middleware/security-headers.ts";
import { xsrf } from "./middleware/xsrf.ts";
import { authRoutes } from "./routes/auth.ts";
import { phoneRoutes } from "./routes/phone.ts";
import { userRoutes } from "./routes/user.ts";
import { broadcastRoutes } from "./routes/broadcast.ts";
import { broadcastCheckRoutes } from "./routes/broadcast-checks.ts";
import { businessRoutes } from "./routes/business.ts";
import { businessMediaRoutes } from "./routes/business-media.ts";
import { businessTypeRoutes } from "./routes/businesstype.ts";
import { customerRoutes } from "./routes/customer.ts";
import { customerMessageRoutes } from "./routes/customer-messages.ts";
import { couponRoutes } from "./routes/coupon.ts";
import { healthRoutes } from "./routes/health.ts";
import { inboxRoutes } from "./routes/inbox.ts";
import { setupRoutes } from "./routes/setup.ts";
import { settingsRoutes } from "./routes/settings.ts";
import { checklistRoutes } from "./routes/checklist.ts";
import { settingsMailRoutes } from "./routes/settings-mail.ts";
import { siteRoutes } from "./routes/site.ts";
import { programPageRoutes } from "./routes/program-page.ts";
import { publicPageServer } from "./routes/public-pages.ts";
import { registrationRoutes } from "./routes/registration.ts";
import { loadSubscribePageFiles, type SubscribePageAssets, subscribePageRoutes } from "./routes/subscribe-page.ts";
import { mySubscriptionsPageRoutes } from "./routes/my-subscriptions-page.ts";
import { shortLinkRoutes } from "./routes/short-link.ts";
import { subscriptionRoutes } from "./routes/subscription.ts";
import { uploadFileRoutes } from "./routes/uploads.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { type StaticAssets, serveAsset } from "./static.ts";
import type { AppEnv } from "./types.ts";

export interface AppOptions {
  /** The embedded UI bundle; absent in API tests. */
  assets?: StaticAssets;
  /** Which of those assets the server-rendered subscribe page inlines and loads. */
  subscribePage?: SubscribePageAssets;
  /** The public pages rendered at build time: path -> file (build/web/manifest.ts `publicPages`). */
  publicPages?: Record<string, string>;
}

/** Each API area under /api/, in the order they are tried (an area may be served by several route files). */
const API_ROUTES: [string, Hono<AppEnv>][] = [
  ["health", healthRoutes],
  ["site", siteRoutes],
  ["setup", setupRoutes],
  ["auth", authRoutes],
  ["auth", phoneRoutes],
  ["user", userRoutes],
  ["businesstype", businessTypeRoutes],
  ["customer", customerRoutes],
  ["customer", customerMessageRoutes],
  ["business", businessRoutes],
  ["business", businessMediaRoutes],
  ["business", registrationRoutes],
  ["business", broadcastRoutes],
  ["broadcast", broadcastCheckRoutes],
  ["subscription", subscriptionRoutes],
  ["webhooks/twilio", webhookRoutes],
  ["inbox", inboxRoutes],
  ["coupon", couponRoutes],
  ["settings", settingsRoutes],
  ["settings", settingsMailRoutes],
  ["settings", checklistRoutes],
];

// Every request comes in here. Middleware for all: security headers, the XSRF check (not for Twilio's webhooks) and
// the session; each route adds its own guards and body limit (middleware/auth.ts, middleware/body-limit.ts).
export function createApp(ctx: AppContext, options: AppOptions = {}) {
  const app = new Hono<AppEnv>();
  app.onError(onError);
  app.use("*", async (c, next) => {
    c.set("ctx", ctx);
    c.set("peer", c.env?.requestIP?.(c.req.raw)?.address);
    const started = performance.now();
    await next();
    // The path only: a query string can hold a token (a reset link, an unsubscribe link).
    if (ctx.config.accessLog) ctx.logger.info(`${c.req.method} ${c.req.path} ${c.res.status} ${(performance.now() - started).toFixed(1)}ms`);
  });
  // The backstop: no body, on any path, streams past the largest route limit (each route caps its own below it).
  app.use("*", bodyBackstop);
  const pageFiles = loadSubscribePageFiles(options.assets, options.subscribePage);
  app.use("*", securityHeaders(pageFiles.scriptHash ? [pageFiles.scriptHash] : []), xsrf);
  app.use("/api/*", resolveUser);
  app.use("/api/*", diskSpaceGuard); // 507 for writes while the disk is down to its margin (logins still work)
  for (const [base, routes] of API_ROUTES) app.route(`/api/${base}`, routes);

  // Unknown paths read no body, but cap it as a JSON route would (a 30 MB body answers 413, not 404 after 30 MB).
  app.all("/api/*", smallBody, (c) => errorJson(c, 404, "not_found", "No such API endpoint."));
  app.route("/uploads", uploadFileRoutes);
  // The page a poster's QR code opens: rendered here, light enough for a phone on one bar of signal.
  app.route("/subscribe", subscribePageRoutes(pageFiles));
  app.route("/my-subscriptions", mySubscriptionsPageRoutes(pageFiles));
  // The programme's public facts for carriers' reviewers (issue 23), in the same shell.
  app.route("/program", programPageRoutes(pageFiles));
  // A broadcast's short links (issue 25): a redirect to the original URL, the click counted.
  app.route("/l", shortLinkRoutes(pageFiles));

  const assets = options.assets ?? {};
  const publicPages = publicPageServer(options.publicPages);
  app.on(["GET", "HEAD"], "*", (c) => {
    const asset = assets[c.req.path];
    if (asset) return serveAsset(c, asset);
    const page = publicPages.has(c.req.path) ? publicPages.answer(c, c.req.path) : null;
    if (page) return page;
    // Client-side routes (and unknown paths, which the UI sends home) get the app shell.
    const shell = assets["/index.html"];
    if (shell && !/\.[a-z0-9]{1,5}$/i.test(c.req.path)) return serveAsset(c, shell);
    return errorJson(c, 404, "not_found", "Not found.");
  });
  // A public page's form sent before its script ran, or without JavaScript (the screens send through the API): the
  // page again, nothing read or kept (the session lives in the app, so a login needs it; see bench/README.md).
  app.post("*", smallBody, (c, next) => (publicPages.has(c.req.path) ? c.redirect(c.req.path, 303) : next()));
  app.all("*", smallBody, (c) => errorJson(c, 405, "method_not_allowed", "Method not allowed."));
  return app;
}

export type App = ReturnType<typeof createApp>;
