import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { type Context, Hono } from "hono";
import { isDiskFull } from "../../db/disk-full.ts";
import { AppError, DISK_FULL, DiskFullError, NotFoundError, TooManyRequestsError } from "../../errors.ts";
import type { PublicBusiness } from "../../schemas/businesses.ts";
import { CONTACT_PREFERENCES } from "../../schemas/customers.ts";
import { ID_TEXT } from "../../schemas/ids.ts";
import { publicSource } from "../../schemas/subscriptions.ts";
import { typedReachOf } from "../../schemas/whatsapp-marketing.ts";
import { smallBody } from "../middleware/body-limit.ts";
import { openerNotIsolated } from "../middleware/security-headers.ts";
import { formEchoesCookie } from "../middleware/xsrf.ts";
import { EMPTY_FORM, type FormState, notFoundPage, type PageShell, subscribeFormPage, subscribedPage } from "../pages/subscribe-page.tsx";
import { requestMeta } from "../request.ts";
import type { StaticAssets } from "../static.ts";
import type { AppEnv } from "../types.ts";

/** The build's assets of the server-rendered subscribe page (build/web/manifest.ts `subscribePage`). */
export interface SubscribePageAssets {
  css: string;
  /** The stylesheet of the other pages in its shell (/program, /my-subscriptions); absent: theirs is `css`. */
  shellCss?: string;
  js: string;
}

/** The page's stylesheet and script as inlined in every answer, and the script's CSP hash ('sha256-…'). */
export interface SubscribePageFiles {
  css: string;
  /** What /program and /my-subscriptions inline: the subscribe page's stylesheet and their own rules. */
  shellCss: string;
  script: string | null;
  scriptHash: string | null;
}

/**
 * Reads the two files once, at start: both are inlined, so the page is one request (bench/pageload.ts: a second
 * request for a 1.6 KB script cost ~60 ms of the phone field on Slow 4G). Without a build (API tests): neither.
 */
export function loadSubscribePageFiles(assets: StaticAssets = {}, page?: SubscribePageAssets): SubscribePageFiles {
  const read = (url: string | undefined) => {
    const file = url && assets[url]?.file;
    return file ? readFileSync(file, "utf8") : null;
  };
  // "</script" inside the script would end the element early; "<\/" means the same in JavaScript strings and regexps.
  const script = read(page?.js)?.replaceAll("</script", "<\\/script") ?? null;
  const scriptHash = script === null ? null : `sha256-${createHash("sha256").update(script).digest("base64")}`;
  const css = read(page?.css) ?? "";
  return { css, shellCss: read(page?.shellCss) ?? css, script, scriptHash };
}

/** The same sentence the API's XSRF check answers with (middleware/xsrf.ts), for a form posted with a stale token. */
const XSRF_FAILED = "Your session token is missing or out of date. Reload the page and try again.";

/**
 * GET /subscribe?id=N[&src=list]: the page, rendered here (no app bundle). POST /subscribe?id=N: the same page's form
 * without JavaScript; the answer is the page again (its success card, or the form with the refusal's texts), so a
 * subscription is one round trip. The subscription itself is the API's (services.subscriptions.subscribe).
 */
export function subscribePageRoutes(files: SubscribePageFiles) {
  const shellOf = (c: Context<AppEnv>): PageShell => {
    const now = c.var.ctx.services.settings.current();
    return { brand: now.brandName, css: files.css, script: files.script, smsNumber: now.twilio?.from ?? null };
  };
  const reachOf = (c: Context<AppEnv>) => typedReachOf(c.var.ctx.config.defaultCountry);
  const businessOf = (c: Context<AppEnv>): PublicBusiness | null => {
    const id = c.req.query("id") ?? "";
    if (!ID_TEXT.test(id)) return null;
    try {
      return c.var.ctx.services.businesses.getPublic(Number(id));
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw err;
    }
  };

  return new Hono<AppEnv>()
    .use(openerNotIsolated)
    .get("/", async (c) => {
      const shell = shellOf(c);
      const business = businessOf(c);
      if (!business) return html(c, notFoundPage(shell), 404);
      return html(c, subscribeFormPage(shell, business, publicSource(c.req.query("src")), c.var.xsrfToken, EMPTY_FORM, reachOf(c)));
    })
    .post("/", smallBody, async (c) => {
      const shell = shellOf(c);
      const business = businessOf(c);
      if (!business) return html(c, notFoundPage(shell), 404);
      const source = publicSource(c.req.query("src"));
      const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      const text = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : "");
      const pref = CONTACT_PREFERENCES.find((p) => p === text("contactPreference")) ?? null;
      const form: FormState = { ...EMPTY_FORM, phone: text("phone").slice(0, 100), contactPreference: pref };
      const refused = (status: 400 | 403 | 429 | 507, fields: Record<string, string>, alert: string | null) =>
        html(c, subscribeFormPage(shell, business, source, c.var.xsrfToken, { ...form, fields, alert: Object.keys(fields).length ? null : alert }, reachOf(c)), status);

      if (!formEchoesCookie(c, body._xsrf)) return refused(403, {}, XSRF_FAILED);
      try {
        if (!c.var.ctx.diskSpace.hasRoomFor(0)) throw new DiskFullError();
        const input = { businessId: business.id, phone: form.phone, contactPreference: text("contactPreference"), source };
        const { message } = c.var.ctx.services.subscriptions.subscribe(input, requestMeta(c));
        return html(c, subscribedPage(shell, business, message));
      } catch (err) {
        if (err instanceof NotFoundError) return html(c, notFoundPage(shell), 404);
        if (err instanceof TooManyRequestsError) {
          c.header("Retry-After", String(err.retryAfterSeconds));
          return refused(429, {}, err.message);
        }
        if (err instanceof AppError && (err.status === 400 || err.status === 507)) return refused(err.status, err.fields ?? {}, err.message);
        if (isDiskFull(err)) return refused(507, {}, DISK_FULL);
        throw err;
      }
    });
}

/**
 * An HTML answer, gzipped when the browser takes it (the page is ~10 KB with its CSS, ~3 KB compressed). Private and
 * revalidated: it carries this browser's XSRF token.
 */
export function html(c: Context<AppEnv>, page: string, status: 200 | 400 | 403 | 404 | 410 | 429 | 507 = 200): Response {
  c.header("Content-Type", "text/html; charset=utf-8");
  c.header("Cache-Control", "private, no-cache");
  c.header("Vary", "Accept-Encoding");
  if (!/\bgzip\b/.test(c.req.header("accept-encoding") ?? "")) return c.body(page, status);
  c.header("Content-Encoding", "gzip");
  return c.body(Bun.gzipSync(page), status);
}

