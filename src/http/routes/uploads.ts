import { Hono } from "hono";
import { isTwilioFetcher } from "../../services/public-url-reach.ts";
import { errorJson } from "../errors.ts";
import type { AppEnv } from "../types.ts";

// Stored images, public (the business list shows them and Twilio fetches broadcast media itself). Names are random
// and never reused, so responses may be cached for a year. GET and HEAD carry the exact type and length.
export const uploadFileRoutes = new Hono<AppEnv>().on(["GET", "HEAD"], "/:name", (c) => {
  const image = c.var.ctx.services.uploads.open(c.req.param("name"));
  if (!image) return errorJson(c, 404, "not_found", "Image not found.");
  // Twilio fetching a broadcast's image proves the public URL works from outside (the checklist's Public URL line).
  if (isTwilioFetcher(c.req.header("user-agent"))) c.var.ctx.services.checklist.twilioFetchedMedia();
  const headers = {
    "Content-Type": image.contentType,
    "Content-Length": String(image.size),
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    "Content-Disposition": "inline",
  };
  // A Blob body lets Bun send the file straight from disk.
  return new Response(c.req.method === "HEAD" ? null : Bun.file(image.path), { status: 200, headers });
});
