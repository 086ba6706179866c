// The design system first, so page stylesheets imported by the screens come after it in the bundle and win.
import "./shared/styles/app.css";
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { loadCurrentUser } from "./shared/state/session.ts";
import { loadSite } from "./shared/state/site.ts";

void loadSite();
void loadCurrentUser();
const root = document.getElementById("root");
if (root) createRoot(root).render(<App />);
