import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";

// Everything the UI needs comes from this origin; images may also be data:/blob: (previews, QR codes).
export const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    imgSrc: ["'self'", "data:", "blob:"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    scriptSrc: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
  },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: "same-origin",
});

let pairs: Promise<readonly (readonly [string, string])[]> | undefined;

/**
 * The headers `securityHeaders` puts on a response, read off the middleware itself once (a throwaway request through
 * it), for the routes Bun.serve answers without Hono (routes/subscription.ts): they send exactly these.
 */
export function securityHeaderPairs(): Promise<readonly (readonly [string, string])[]> {
  pairs ??= (async () => {
    const res = await new Hono().use(securityHeaders).get("/", (c) => c.body(null)).request("/");
    return Object.freeze([...res.headers].map(([name, value]) => Object.freeze([name, value] as const)));
  })();
  return pairs;
}
