import { PrivacyPage } from "../features/info/Privacy.tsx";
import { startPublicPage } from "./page.tsx";

startPublicPage({ privacy: PrivacyPage });
