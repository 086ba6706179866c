import { Hono } from "hono";
import { requireUser } from "../middleware/auth.ts";
import { queryId } from "../request.ts";
import type { AppEnv } from "../types.ts";

// Binary media of a business, mounted at /api/business next to the business CRUD routes.
// The QR code is an <img> source (no Authorization header), so it is public for active businesses; the poster PDF
// is the owner's (or an admin's).

/** Browsers and proxies may keep a QR for an hour, then revalidate with the ETag (cheap 304). */
export const QR_CACHE_CONTROL = "public, max-age=3600";

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

export const businessMediaRoutes = new Hono<AppEnv>()
  .get("/GetQRCodeImage", async (c) => {
    const qr = await c.var.ctx.services.qrCodes.image(queryId(c));
    c.header("ETag", qr.etag);
    c.header("Cache-Control", QR_CACHE_CONTROL);
    if (etagMatches(c.req.header("if-none-match"), qr.etag)) return c.body(null, 304);
    c.header("Content-Type", "image/png");
    c.header("Content-Length", String(qr.png.byteLength));
    return c.body(qr.png as Uint8Array<ArrayBuffer>);
  })
  .get("/GetPosterPdf", requireUser, async (c) => {
    const poster = await c.var.ctx.services.posters.forUser(c.var.user!, queryId(c));
    c.header("Content-Type", "application/pdf");
    c.header("Content-Length", String(poster.pdf.byteLength));
    c.header("Content-Disposition", `attachment; filename="${poster.fileName}"`);
    c.header("Cache-Control", "private, no-store");
    return c.body(poster.pdf as Uint8Array<ArrayBuffer>);
  });
