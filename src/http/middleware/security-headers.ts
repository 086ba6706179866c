import { NONCE, secureHeaders } from "hono/secure-headers";

// Everything the UI needs comes from this origin; images may also be data:/blob: (previews, QR codes). The one inline
// script, the subscribe page's (inlined so a phone on one bar of signal needs no second request), carries the nonce.
export const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    imgSrc: ["'self'", "data:", "blob:"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    scriptSrc: ["'self'", NONCE],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
  },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: "same-origin",
});
