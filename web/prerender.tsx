// The public pages rendered at build time (scripts/build-public-pages.ts, on Preact like the pages' own scripts), so a
// phone shows their words with the HTML (issue 26 item 4). The same components as the app, so the same texts; each
// page's script (web/public/) hydrates it. What depends on the install (the brand, the contact address) is rendered as
// a marker that the server replaces per answer (src/http/routes/public-pages.ts), and the server puts the site's facts
// in the page for the app's first render to match.
import { renderToString } from "react-dom/server";
import { OWNER_SIGNUP_MODES, type OwnerSignup } from "../src/schemas/owner-approval.ts";
import type { SiteInfo } from "../src/schemas/settings.ts";
import { PublicPage } from "./public/page.tsx";
import { screens } from "./screens.ts";
import { pageTitle, type RouteName, routes } from "./shared/paths.ts";
import { site } from "./shared/state/site.ts";

/** Markers the server replaces (private-use characters: no text of a page contains them, HTML escaping keeps them). */
export const BRAND_MARK = "\uE000brand\uE000";
export const EMAIL_MARK = "\uE000email\uE000";

/** The day the pages are rendered on (their "Last updated" line and the footer's year): the server writes today's. */
export const RENDER_DAY = new Date(2000, 0, 2, 12);

/** The pages rendered ahead: what a customer or a visitor opens before any login. */
export const PRERENDERED: RouteName[] = ["home", "businesses", "login", "register", "forgotPassword", "terms", "privacy", "about", "faq"];

/** The key of a page as rendered for one owner sign-up mode (the register page differs by it; the others do not). */
export const pageKey = (path: string, signup: OwnerSignup) => `${path}|${signup}`;

/**
 * Each page's #root content and title, rendered for a visitor who is not logged in, once per owner sign-up mode
 * (key: pageKey(path, mode)).
 */
export function prerenderPublicPages(): { key: string; path: string; title: string; html: string }[] {
  const facts: SiteInfo = {
    brandName: BRAND_MARK,
    contactEmail: EMAIL_MARK,
    publicUrl: "",
    publicUrlSource: "request",
    publicUrlPrivate: false,
    setupNeeded: false,
    ownerSignup: "approval",
    smsNumber: null,
  };
  // new Date() is "today" in LastUpdated and the footer: during the render, RENDER_DAY (the server puts in its own).
  const RealDate = globalThis.Date;
  globalThis.Date = class extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length) super(...(args as [number]));
      else super(RENDER_DAY.getTime());
    }
  } as DateConstructor;
  try {
    return OWNER_SIGNUP_MODES.flatMap((ownerSignup) => {
      site.value = { ...facts, ownerSignup };
      return PRERENDERED.map((name) => ({
        key: pageKey(routes[name].path, ownerSignup),
        path: routes[name].path,
        title: pageTitle(name, BRAND_MARK),
        html: renderToString(<PublicPage screens={screens} path={routes[name].path} />),
      }));
    });
  } finally {
    globalThis.Date = RealDate;
    site.value = null;
  }
}
