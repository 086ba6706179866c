import { type Context, Hono } from "hono";
import type { UploadKind } from "../../repos/uploads.ts";
import { IMAGE_TOO_LARGE } from "../../schemas/texts.ts";
import { requireUser } from "../middleware/auth.ts";
import { imageBody, smallBody } from "../middleware/body-limit.ts";
import { multipartField } from "../multipart.ts";
import { queryId, readJson } from "../request.ts";
import type { AppEnv } from "../types.ts";

const NO_FILE = "Please choose an image to upload.";
const uploadBody = imageBody(IMAGE_TOO_LARGE);

/** Streams the multipart field `file` into the uploads service (which caps the image while reading); answers {filePath}. */
async function upload(c: Context<AppEnv>, kind: UploadKind) {
  const file = multipartField(c.req.raw.body, c.req.header("content-type"), "file", NO_FILE);
  const stored = await c.var.ctx.services.uploads.save(c.var.user!.id, kind, file);
  return c.json({ filePath: stored.filePath }, 201);
}

// Spec section 7, /api/business/*. Reads of active businesses are public (list, subscribe page, QR modal); an owner
// manages only their own businesses (another owner's id answers 404), an admin manages all.
export const businessRoutes = new Hono<AppEnv>()
  .get("/GetAllBusinesses", (c) => c.json(c.var.ctx.services.businesses.listPublic()))
  .get("/ListBusinesses", (c) => c.json(c.var.ctx.services.businesses.pagePublic(c.req.query())))
  .get("/GetMyBusinesses", requireUser, (c) => c.json(c.var.ctx.services.businesses.listMine(c.var.user!)))
  .get("/GetMySubscriberCounts", requireUser, (c) => c.json(c.var.ctx.services.businesses.mySubscriberCounts(c.var.user!)))
  .get("/GetBusinessById", (c) => {
    const id = queryId(c);
    const { businesses } = c.var.ctx.services;
    const user = c.var.user;
    // The owner (or an admin) gets the full record, inactive included; everyone else the public view of an active one.
    const own = user ? businesses.findManaged(user, id) : undefined;
    return c.json(own ?? businesses.getPublic(id));
  })
  .get("/GetBusinessesByType", (c) => c.json(c.var.ctx.services.businesses.listPublicByType(queryId(c, "businessTypeId"))))
  // CSV of the business's consent events; an attachment so a browser saves it. Owner of the business or an admin.
  .get("/ExportConsent", requireUser, (c) => {
    const { business, chunks } = c.var.ctx.services.businesses.consentCsv(c.var.user!, queryId(c));
    const encoder = new TextEncoder();
    const csv = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      },
    });
    return c.body(csv, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="consent-business-${business.id}.csv"`,
      "cache-control": "no-store",
    });
  })
  .post("/CreateBusiness", requireUser, smallBody, async (c) => {
    return c.json(c.var.ctx.services.businesses.create(c.var.user!, await readJson(c)), 201);
  })
  .put("/UpdateBusiness", requireUser, smallBody, async (c) => {
    const id = queryId(c);
    return c.json(c.var.ctx.services.businesses.update(c.var.user!, id, await readJson(c)));
  })
  .delete("/DeleteBusiness", requireUser, (c) => {
    c.var.ctx.services.businesses.remove(c.var.user!, queryId(c));
    return c.json({ message: "Business deleted." });
  })
  .post("/UploadLogo", requireUser, uploadBody, (c) => upload(c, "logo"))
  .post("/UploadSampleImage", requireUser, uploadBody, (c) => upload(c, "sample"))
  .delete("/DeleteLogo", requireUser, (c) => {
    c.var.ctx.services.uploads.remove(c.var.user!, "logo", c.req.query("fileName"));
    return c.json({ message: "Logo deleted." });
  })
  .delete("/DeleteSampleImage", requireUser, (c) => {
    c.var.ctx.services.uploads.remove(c.var.user!, "sample", c.req.query("fileName"));
    return c.json({ message: "Sample image deleted." });
  });
