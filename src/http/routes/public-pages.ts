import { readFileSync } from "node:fs";
import type { Context } from "hono";
import { isoDay, longDate } from "../../schemas/long-date.ts";
import { requestOrigin } from "../request.ts";
import type { AppEnv } from "../types.ts";
import { html } from "./subscribe-page.ts";

// The public pages rendered at build time (web/prerender.tsx: home, /businesses, /login, /register, /forgot-password,
// /terms, /privacy): the app's own screens, so a phone shows them with the HTML; each page's own small script
// (web/public/) hydrates it. Each answer puts this install's brand and contact address where the build left its markers, and the
// site's facts (GET /api/site's answer) in the page, so the app's first render matches what the server sent.

/** The markers of web/prerender.tsx (the server does not import web/). */
const MARKS = { brand: "\uE000brand\uE000", email: "\uE000email\uE000" };

/** web/prerender.tsx's RENDER_DAY as the pages show it: a long date, its ISO form, the footer's year. */
const RENDER_DAY = { label: "January 2, 2000", iso: "2000-01-02", year: "© 2000" };

/** Today (the server's day) in the forms RENDER_DAY takes in the pages (web/features/info/components/LegalDocument.tsx). */
function today(now = new Date()): typeof RENDER_DAY {
  return {
    label: longDate(now),
    iso: isoDay(now),
    year: `© ${now.getFullYear()}`,
  };
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/**
 * "<path>|<owner sign-up mode>" -> the page's file (build/web/manifest.ts `publicPages`: the register page differs by
 * the mode); the files are read once, on first use.
 */
export function publicPageServer(pages: Record<string, string> = {}) {
  const read = new Map<string, string>();
  const paths = new Set(Object.keys(pages).map((key) => key.split("|")[0]!));
  return {
    has: (path: string) => paths.has(path),
    /** The page, or null while the first-run setup is due (every page then goes to /setup: the plain app shell). */
    answer(c: Context<AppEnv>, path: string): Response | null {
      const facts = c.var.ctx.services.settings.site(requestOrigin(c));
      if (facts.setupNeeded) return null;
      const key = `${path}|${facts.ownerSignup}`;
      let page = read.get(key);
      if (page === undefined) {
        page = readFileSync(pages[key]!, "utf8");
        read.set(key, page);
      }
      const day = today();
      // "<" escaped: the JSON cannot end its element early. A data block is not a script: the CSP does not apply.
      const data = `<script type="application/json" id="site-data">${JSON.stringify(facts).replace(/</g, "\\u003c")}</script>`;
      const body = page
        .replaceAll(MARKS.brand, escapeHtml(facts.brandName))
        .replaceAll(MARKS.email, escapeHtml(facts.contactEmail))
        .replaceAll(RENDER_DAY.label, day.label)
        .replaceAll(RENDER_DAY.iso, day.iso)
        .replaceAll(RENDER_DAY.year, day.year)
        .replace('<div id="root">', `${data}<div id="root">`);
      return html(c, body);
    },
  };
}
