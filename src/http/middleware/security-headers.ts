import { createMiddleware } from "hono/factory";
import { secureHeaders } from "hono/secure-headers";

/**
 * Everything the UI needs comes from this origin; images may also be data:/blob: (previews, QR codes). The only
 * inline scripts allowed are the build's own, by hash (the subscribe page's, inlined so a phone on one bar of signal
 * needs no second request): the header stays the same on every answer.
 */
export const securityHeaders = (inlineScriptHashes: string[] = []) =>
  secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    imgSrc: ["'self'", "data:", "blob:"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    scriptSrc: ["'self'", ...inlineScriptHashes.map((h) => `'${h}'`)],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
  },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: "same-origin",
  // A route's own stricter header stands (GET /l/<code> sends no Referer at all: its URL names a person).
  overwrite: false,
});

/**
 * For the page a poster's QR code opens (public, anonymous, nothing a cross-origin window could read): no
 * Cross-Origin-Opener-Policy isolation. "same-origin" there made the browser give every scan a browsing context
 * group, and a process, of its own: ~35 ms of the phone field on a Slow 4G phone (bench/README.md, issue 26 item 3).
 * Pages with a person's data or a login keep it.
 */
export const openerNotIsolated = createMiddleware(async (c, next) => {
  c.header("Cross-Origin-Opener-Policy", "unsafe-none");
  await next();
});
