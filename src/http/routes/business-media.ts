import { Hono } from "hono";
import { requireUser } from "../middleware/auth.ts";
import { queryId, requestOrigin } from "../request.ts";
import type { AppEnv } from "../types.ts";

// Binary media of a business, mounted at /api/business next to the business CRUD routes.
// The QR code is an <img> source (no Authorization header), so it is public for active businesses; the poster PDF
// is the owner's (or an admin's).

/** Browsers and proxies revalidate a QR every time with its ETag (a cheap 304): the link it encodes follows the
 * public URL setting, which the admin may change at any moment. */
export const QR_CACHE_CONTROL = "public, no-cache";

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

export const businessMediaRoutes = new Hono<AppEnv>()
  .get("/GetQRCodeImage", async (c) => {
    const qr = await c.var.ctx.services.qrCodes.image(queryId(c), requestOrigin(c));
    // Without a public URL the link follows the address the QR was asked on.
    c.header("Vary", "Host");
    c.header("ETag", qr.etag);
    c.header("Cache-Control", QR_CACHE_CONTROL);
    if (etagMatches(c.req.header("if-none-match"), qr.etag)) return c.body(null, 304);
    c.header("Content-Type", "image/png");
    c.header("Content-Length", String(qr.png.byteLength));
    return c.body(qr.png as Uint8Array<ArrayBuffer>);
  })
  .get("/GetPosterPdf", requireUser, async (c) => {
    const poster = await c.var.ctx.services.posters.forUser(c.var.user!, queryId(c), { origin: requestOrigin(c) });
    c.header("Content-Type", "application/pdf");
    c.header("Content-Length", String(poster.pdf.byteLength));
    c.header("Content-Disposition", `attachment; filename="${poster.fileName}"`);
    c.header("Cache-Control", "private, no-store");
    return c.body(poster.pdf as Uint8Array<ArrayBuffer>);
  });
