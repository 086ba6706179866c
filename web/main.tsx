// The design system first, so page stylesheets come after it in the bundle and win. The screens import the sheets
// they use too, but the cascade's order is fixed here, not by the order the features happen to be imported in.
import "./shared/styles/app.css";
import "./shared/styles/setup.css";
import "./shared/styles/marketing.css";
import "./shared/styles/legal.css";
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
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { screens } from "./screens.ts";
import { loadCurrentUser } from "./shared/state/session.ts";
import { loadSite, readSiteFromPage } from "./shared/state/site.ts";
import { showCarriedToasts } from "./shared/state/toasts.ts";

// The app: every screen, for someone logged in (a public page's own script loads this file for them, web/public/)
// and for the pages not rendered ahead. A rendered page it replaces was drawn for a visitor: it is drawn anew.
readSiteFromPage();
void loadSite();
void loadCurrentUser();
showCarriedToasts();
const root = document.getElementById("root");
if (root) createRoot(root).render(<App screens={screens} />);
