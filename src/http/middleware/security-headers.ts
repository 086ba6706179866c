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
