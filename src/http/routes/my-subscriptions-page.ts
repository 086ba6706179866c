import { type Context, Hono } from "hono";
import { ID_TEXT } from "../../schemas/ids.ts";
import { MY_SUBSCRIPTIONS_PATH } from "../../services/my-subscriptions.ts";
import { smallBody } from "../middleware/body-limit.ts";
import { linkRefusedPage, mySubscriptionsPage } from "../pages/my-subscriptions-page.tsx";
import type { PageShell } from "../pages/subscribe-page.tsx";
import type { AppEnv } from "../types.ts";
import { html, type SubscribePageFiles } from "./subscribe-page.ts";

/** What the page says after a post; `left` is a business id or "all". */
function noticeOf(left: string | undefined, names: Map<number, string>): string | null {
  if (left === "all") return "You are unsubscribed from every business. Text START to get their messages again.";
  const name = left && ID_TEXT.test(left) ? names.get(Number(left)) : undefined;
  return name ? `You are unsubscribed from ${name}.` : null;
}

/**
 * GET /my-subscriptions?t=TOKEN: the person's subscriptions (the link in a HELP reply). POST /my-subscriptions (form:
 * t, business = an id or "all"): leaves it, then 303 back to the page. The token in the form is the only credential,
 * and a forged post from another site cannot know it. An expired token: 410, an unknown or altered one: 404, each
 * with how to get a new link.
 */
export function mySubscriptionsPageRoutes(files: SubscribePageFiles) {
  const shellOf = (c: Context<AppEnv>): PageShell => ({ brand: c.var.ctx.services.settings.current().brandName, css: files.shellCss, script: null });
  const refused = (c: Context<AppEnv>, state: "expired" | "unknown") => html(c, linkRefusedPage(shellOf(c), state), state === "expired" ? 410 : 404);

  return new Hono<AppEnv>()
    .get("/", (c) => {
      const token = c.req.query("t") ?? "";
      const opened = c.var.ctx.services.mySubscriptions.open(token);
      if (opened.state !== "ok") return refused(c, opened.state);
      const names = new Map(opened.subscriptions.map((s) => [s.businessId, s.businessName]));
      const notice = noticeOf(c.req.query("left"), names);
      return html(c, mySubscriptionsPage(shellOf(c), { phone: opened.phone, subscriptions: opened.subscriptions, token, notice }));
    })
    .post("/", smallBody, async (c) => {
      const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      const token = typeof body.t === "string" ? body.t : "";
      const business = typeof body.business === "string" ? body.business : "";
      const target = business === "all" ? "all" : ID_TEXT.test(business) ? Number(business) : null;
      const opened = c.var.ctx.services.mySubscriptions.open(token);
      if (opened.state !== "ok") return refused(c, opened.state);
      // A business that is not on the list (or no business at all): nothing to do; the page as it is.
      if (target === null || (target !== "all" && !opened.subscriptions.some((s) => s.businessId === target))) {
        return c.redirect(`${MY_SUBSCRIPTIONS_PATH}?t=${encodeURIComponent(token)}`, 303);
      }
      c.var.ctx.services.mySubscriptions.unsubscribe(token, target);
      return c.redirect(`${MY_SUBSCRIPTIONS_PATH}?t=${encodeURIComponent(token)}&left=${target}`, 303);
    });
}
