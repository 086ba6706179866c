// A public page's own script (issue 26 item 4): the page came rendered from the server (web/prerender.tsx), and this
// makes it live with only its own screen, on Preact's React-compatible runtime (scripts/build-public-pages.ts), so a
// phone fetches tens of kilobytes instead of the app. Someone logged in gets the app instead (their nav differs, and
// their screens are there); a link to a screen this page does not hold loads that page from the server.
import "../shared/styles/app.css";
import { hydrateRoot } from "react-dom/client";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { App, type Screens } from "../app.tsx";
import { isAuthenticated } from "../shared/state/session.ts";
import { readSiteFromPage } from "../shared/state/site.ts";
import { showCarriedToasts } from "../shared/state/toasts.ts";

/** The page's tree, the same at build time (at the path the page is rendered for: Preact's renderer has no server
 * snapshot for wouter's browser location, so a fixed one stands in) and in the browser. */
export function PublicPage({ screens, path }: { screens: Screens; path?: string }) {
  const at = path === undefined ? undefined : memoryLocation({ path, static: true });
  return (
    <Router hook={at?.hook} searchHook={at?.searchHook}>
      <App screens={screens} />
    </Router>
  );
}

/** The app's files, which the server names in the page (<meta name="nearcast-app">). */
function loadApp(meta: HTMLMetaElement): void {
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = meta.dataset.css!;
  const js = document.createElement("script");
  js.type = "module";
  js.src = meta.content;
  document.head.append(css, js);
}

export function startPublicPage(screens: Screens): void {
  const root = document.getElementById("root");
  const app = document.querySelector<HTMLMetaElement>('meta[name="nearcast-app"]');
  if (isAuthenticated.value && app) return loadApp(app);
  readSiteFromPage();
  showCarriedToasts();
  if (root) hydrateRoot(root, <PublicPage screens={screens} />);
}
