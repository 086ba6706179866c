import { Hono } from "hono";
import { NotFoundError } from "../../errors.ts";
import type { PublicBusiness } from "../../schemas/businesses.ts";
import { ID_TEXT } from "../../schemas/ids.ts";
import { BUSINESS_NOT_FOUND } from "../../schemas/texts.ts";
import { programPage } from "../pages/program-page.tsx";
import { notFoundPage, type PageShell } from "../pages/subscribe-page.tsx";
import type { AppEnv } from "../types.ts";
import { html, type SubscribePageFiles } from "./subscribe-page.ts";

/**
 * GET /program?id=N: the public program page of an active business (what carriers' reviewers open); GET
 * /program/poster.pdf?id=N: its poster, the opt-in image of the registration kit. No login; an unknown or inactive
 * business is the 404 page (the PDF: the API's 404).
 */
export function programPageRoutes(files: SubscribePageFiles) {
  const idOf = (raw: string | undefined) => (raw && ID_TEXT.test(raw) ? Number(raw) : null);
  return new Hono<AppEnv>()
    .get("/", (c) => {
      const { settings, businesses } = c.var.ctx.services;
      const shell: PageShell = { brand: settings.current().brandName, css: files.shellCss, script: null, smsNumber: settings.current().twilio?.from ?? null };
      const id = idOf(c.req.query("id"));
      let business: PublicBusiness | null = null;
      try {
        business = id === null ? null : businesses.getPublic(id);
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
      }
      if (!business) return html(c, notFoundPage(shell), 404);
      return html(c, programPage(shell, business, { publicUrl: settings.savedPublicUrl() }));
    })
    .get("/poster.pdf", async (c) => {
      const id = idOf(c.req.query("id"));
      if (id === null) throw new NotFoundError(BUSINESS_NOT_FOUND);
      const poster = await c.var.ctx.services.registration.publicPoster(id);
      c.header("Content-Type", "application/pdf");
      c.header("Content-Length", String(poster.pdf.byteLength));
      c.header("Content-Disposition", `inline; filename="${poster.fileName}"`);
      c.header("Cache-Control", "public, no-cache");
      return c.body(poster.pdf as Uint8Array<ArrayBuffer>);
    });
}
