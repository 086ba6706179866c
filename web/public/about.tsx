import { AboutPage } from "../features/info/About.tsx";
import { startPublicPage } from "./page.tsx";

startPublicPage({ about: AboutPage });
