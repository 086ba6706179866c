import { FaqPage } from "../features/info/Faq.tsx";
import { startPublicPage } from "./page.tsx";

startPublicPage({ faq: FaqPage });
