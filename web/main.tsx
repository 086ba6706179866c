// The design system first, so page stylesheets come after it in the bundle and win. The screens import the sheets
// they use too, but the cascade's order is fixed here, not by the order the features happen to be imported in.
import "./shared/styles/app.css";
import "./shared/styles/setup.css";
import "./shared/styles/marketing.css";
import "./shared/styles/before-send.css";
import "./shared/styles/admin.css";
import "./shared/styles/broadcast.css";
import "./shared/styles/pref-cards.css";
import "./shared/styles/customers.css";
import "./shared/styles/subscription-requests.css";
import "./shared/styles/businesses.css";
import "./shared/styles/qr.css";
import "./shared/styles/auth.css";
import "./shared/styles/simulate-reply.css";
import "./shared/styles/settings.css";
import "./shared/styles/inbox.css";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { isAuthenticated, loadCurrentUser } from "./shared/state/session.ts";
import { loadSite, site } from "./shared/state/site.ts";

// A page the server sent rendered (web/prerender.tsx) carries the site's facts it was rendered with: the first render
// starts from them, so it matches the HTML and React keeps it. It was rendered for a visitor: someone logged in gets
// the app drawn anew (their nav differs).
const facts = document.getElementById("site-data")?.textContent;
if (facts) site.value = JSON.parse(facts);
void loadSite();
void loadCurrentUser();
const root = document.getElementById("root");
if (root?.firstElementChild && !isAuthenticated.value) hydrateRoot(root, <App />);
else if (root) createRoot(root).render(<App />);
