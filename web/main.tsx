import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { loadCurrentUser } from "./state/session.ts";
import "./styles/app.css";

void loadCurrentUser();
const root = document.getElementById("root");
if (root) createRoot(root).render(<App />);
