import { TermsPage } from "../features/info/Terms.tsx";
import { startPublicPage } from "./page.tsx";

startPublicPage({ terms: TermsPage });
