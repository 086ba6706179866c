import { Hono } from "hono";
import { isLinkPreviewer } from "../link-previewers.ts";
import { linkNotFoundPage } from "../pages/link-not-found-page.tsx";
import { clientIp } from "../request.ts";
import type { AppEnv } from "../types.ts";
import { html, type SubscribePageFiles } from "./subscribe-page.ts";

/**
 * GET /l/<code> (issue 25): a 302 to the URL the short link stands for, the click recorded (not for a HEAD nor a
 * link preview: src/http/link-previewers.ts). No login, no body. An unknown code is a small 404 page in the install's
 * brand, never a redirect. Not cached (each click must reach us) and no Referer to the shop's site (the code names
 * the person it was sent to).
 */
export function shortLinkRoutes(files: SubscribePageFiles) {
  return new Hono<AppEnv>().on(["GET", "HEAD"], "/:code", (c) => {
    const { services } = c.var.ctx;
    const person = c.req.method === "GET" && !isLinkPreviewer(c.req.header("user-agent")) ? { address: clientIp(c) } : null;
    const url = services.shortLinks.follow(c.req.param("code"), person);
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "no-referrer");
    if (url === null) {
      const brand = services.settings.current().brandName;
      return html(c, linkNotFoundPage({ brand, css: files.css, script: null }), 404);
    }
    return c.redirect(url, 302);
  });
}
